/**
 * Fan-out phase, part 1 (not timed): the destinations. Creates the inventory Workspace with N
 * SyncTargets and N Locations over HTTP (bounded concurrency), runs the mailbox step for every
 * mailbox key through `POST /hooks/mailbox`, finds each mailbox's space id (the Workspace's
 * `spec.cluster`) and runs one translate pass, so every mailbox already holds its empty SyncerConfig
 * `the-one` and the timed part measures only the workload's fan-out. Progress every ~10%. The
 * edge benchmark reuses it with its own inventory name and Location label.
 */
import { mailboxName } from '../lib/reconcile/keys.ts'
import { profiled } from './cpu-profile.ts'
import {
  hashAt,
  incomplete,
  type Mailbox,
  readManifests,
  SYNCER_CONFIG_KEY,
} from './fan-out-check.ts'
import { driveHook, type HookOutcome } from './fan-out-hooks.ts'
import {
  edgePath,
  INVENTORY_WS,
  location,
  syncTarget,
  targetName,
  workspace,
  workspacesPath,
} from './fan-out-objects.ts'
import type { FanOutDeps } from './fan-out-types.ts'
import type { HubClient } from './hub-client.ts'
import { runLoad } from './load.ts'

export type Inventory = {
  spaceId: string
  mailboxes: Mailbox[]
  /** Hash of the SyncerConfig every mailbox holds before the workload arrives. */
  emptySyncerConfigHash: string
  /** Milliseconds of: creating SyncTargets and Locations, the mailbox step, the first translate. */
  createMs: number
  mailboxMs: number
  translateMs: number
  /** Store requests of the same three parts (when the stack counts them). */
  requests?: { objects: number; mailboxes: number; translate: number }
}

export type SetupOptions = {
  targets: number
  concurrency: number
  batch: number
  calls: number
  /** Inventory Workspace name under root (default INVENTORY_WS). */
  inventory?: string
  /** The Locations' `env` label (default `bench`). */
  env?: string
}

/** A progress callback that speaks at every tenth of `total`. */
export function tenths(say: (message: string) => void, label: string, total: number) {
  let said = 0
  return (done: number) => {
    const tenth = Math.floor((done * 10) / Math.max(1, total))
    if (tenth <= said) return
    said = tenth
    say(`${label}: ${done}/${total}`)
  }
}

/** A Workspace's `spec.cluster` (its space id), or "" when absent. */
export const specCluster = (o: unknown) =>
  String((o as { spec?: { cluster?: unknown } } | undefined)?.spec?.cluster ?? '')
const uidOf = (o: unknown) =>
  String((o as { metadata?: { uid?: unknown } } | undefined)?.metadata?.uid ?? '')

/** Mailbox space ids by Workspace name, from root:espw. */
async function mailboxSpaces(hub: HubClient): Promise<Map<string, string>> {
  const list = (await hub.call('GET', workspacesPath('root:espw'))) as { items?: unknown[] }
  const out = new Map<string, string>()
  for (const ws of list.items ?? []) {
    const name = (ws as { metadata?: { name?: unknown } }).metadata?.name
    if (typeof name === 'string') out.set(name, specCluster(ws))
  }
  return out
}

const pending = (o: HookOutcome) =>
  o.outcome === 'no mailbox yet' || o.outcome.startsWith('waiting')

export async function setUpInventory(
  deps: Pick<FanOutDeps, 'hub' | 'inspect' | 'progress'> & Partial<Pick<FanOutDeps, 'counter'>>,
  opts: SetupOptions
): Promise<Inventory> {
  const { hub, progress, counter } = deps
  const n = opts.targets
  const inv = await hub.call('POST', workspacesPath('root'), {
    body: workspace(opts.inventory ?? INVENTORY_WS),
    expect: 201,
  })
  const spaceId = specCluster(inv)
  const invPath = `root:${opts.inventory ?? INVENTORY_WS}`
  const uids: string[] = new Array(n)
  let made = 0
  counter?.reset()
  const madeTick = tenths(progress, 'fan-out setup: SyncTargets and Locations', n)
  const created = await profiled('register-objects', () =>
    runLoad({ count: n, concurrency: opts.concurrency }, async (i) => {
      const name = targetName(i, n)
      const body = { body: syncTarget(name), expect: 201 }
      uids[i] = uidOf(await hub.call('POST', edgePath(invPath, 'synctargets'), body))
      await hub.call('POST', edgePath(invPath, 'locations'), {
        body: location(name, opts.env),
        expect: 201,
      })
      madeTick(++made)
    })
  )
  const keys = uids.map((uid) => mailboxName(spaceId, uid))
  const objectRequests = counter?.total() ?? 0
  counter?.reset()
  const mailboxRun = await profiled('register-mailboxes', () =>
    driveHook(hub, 'mailbox', keys, {
      batch: 25,
      calls: 8,
      settled: (o) => !pending(o),
      progress: tenths(progress, 'fan-out setup: mailbox step', n),
    })
  )
  const mailboxRequests = counter?.total() ?? 0
  const ids = await mailboxSpaces(hub)
  const mailboxes = keys.map((key) => ({ key, spaceId: ids.get(key) ?? '' }))
  const lost = mailboxes.filter((m) => !m.spaceId)
  if (lost.length > 0) throw new Error(`fan-out setup: ${lost.length} mailboxes have no space`)
  counter?.reset()
  const translateRun = await driveHook(hub, 'translate', keys, {
    batch: opts.batch,
    calls: opts.calls,
    settled: (o) => !pending(o),
    progress: tenths(progress, 'fan-out setup: first translate', n),
  })
  const translateRequests = counter?.total() ?? 0
  const empty = await incomplete(deps.inspect, mailboxes, [{ key: SYNCER_CONFIG_KEY }])
  if (empty.length > 0)
    throw new Error(`fan-out setup: ${empty.length} mailboxes have no SyncerConfig`)
  const [first] = await readManifests(deps.inspect, mailboxes.slice(0, 1))
  return {
    spaceId,
    mailboxes,
    emptySyncerConfigHash: hashAt(first, SYNCER_CONFIG_KEY) ?? '',
    createMs: created.elapsedMs,
    mailboxMs: mailboxRun.elapsedMs,
    translateMs: translateRun.elapsedMs,
    ...(counter
      ? {
          requests: {
            objects: objectRequests,
            mailboxes: mailboxRequests,
            translate: translateRequests,
          },
        }
      : {}),
  }
}
