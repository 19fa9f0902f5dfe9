/**
 * The rollout phase, part 1 (not timed), on a stack after its fan-out (fan-out.ts): every
 * Location of the fan-out inventory labelled into its ring (rollout-objects.ts), each mailbox
 * found with its wave, the Rollout created in the workload space and its first revision adopted —
 * the rollout hook run once (revision 1, completed at once), translate over every mailbox as the
 * relay sends it when a Rollout's hold moves (each copy now stamped `<rollout>/1`) and the
 * summarize step over the placement (the edges' standings, which the gate reads).
 */
import type { KubeObject } from '../lib/kube/types.ts'
import { mailboxName, rolloutKey } from '../lib/reconcile/keys.ts'
import type { Mailbox } from './fan-out-check.ts'
import { driveHook } from './fan-out-hooks.ts'
import { edgePath, INVENTORY_WS, WORKLOAD_WS, workspacesPath } from './fan-out-objects.ts'
import { specCluster, tenths } from './fan-out-setup.ts'
import type { HubClient } from './hub-client.ts'
import { runLoad } from './load.ts'
import {
  benchRollout,
  indexOfTarget,
  RINGS,
  ROLLOUT,
  ringOf,
  ringPatch,
} from './rollout-objects.ts'
import { type RelayView, relayView } from './rollout-relay.ts'

type Progress = (message: string) => void

export type RolloutStatusView = {
  phase?: string
  revision?: number
  completedRevision?: number
  currentWave?: string
  waves?: { name: string; revision?: number; cut?: number; edges?: number }[]
}

/** What the timed part drives. */
export type RolloutFleet = {
  /** Every mailbox, sorted by key (the order the relay sends them in). */
  mailboxes: Mailbox[]
  /** The mailboxes of each wave, by ring. */
  waves: Mailbox[][]
  rolloutKey: string
  placementKey: string
  /** Which mailboxes the relay wakes for a read of the Rollout (rollout-relay.ts). */
  relay: RelayView
}

const ROLLOUT_PATH = `${edgePath(`root:${WORKLOAD_WS}`, 'rollouts')}/${ROLLOUT}`

/** The Rollout as the hub serves it. */
export const rolloutObject = async (hub: HubClient) =>
  (await hub.call('GET', ROLLOUT_PATH)) as KubeObject

/** The Rollout's status as the hub serves it. */
export async function rolloutStatus(hub: HubClient): Promise<RolloutStatusView> {
  return statusView(await rolloutObject(hub))
}

export const statusView = (r: KubeObject) => (r.status ?? {}) as RolloutStatusView

type Listed = { items?: { metadata?: { name?: string; uid?: string }; spec?: unknown }[] }

/** Each mailbox of the inventory with its wave (its Location's ring). */
async function fleetOf(hub: HubClient): Promise<{ mailboxes: Mailbox[]; waves: Mailbox[][] }> {
  const inv = await hub.call('GET', `${workspacesPath('root')}/${INVENTORY_WS}`)
  const invId = specCluster(inv)
  const spaces = new Map<string, string>()
  const ws = (await hub.call('GET', workspacesPath('root:espw'))) as Listed
  for (const w of ws.items ?? []) spaces.set(w.metadata?.name ?? '', specCluster(w))
  const targets = (await hub.call('GET', edgePath(`root:${INVENTORY_WS}`, 'synctargets'))) as Listed
  const waves: Mailbox[][] = Array.from({ length: RINGS }, () => [])
  const mailboxes: Mailbox[] = []
  for (const t of targets.items ?? []) {
    const i = indexOfTarget(t.metadata?.name ?? '')
    const key = mailboxName(invId, t.metadata?.uid ?? '')
    const spaceId = spaces.get(key)
    if (i === undefined || !spaceId) throw new Error(`rollout setup: no mailbox for ${key}`)
    const m = { key, spaceId }
    mailboxes.push(m)
    waves[ringOf(i)]!.push(m)
  }
  mailboxes.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  return { mailboxes, waves }
}

/** Labels every Location into its ring; returns the Locations' count. */
async function labelRings(hub: HubClient, concurrency: number, progress: Progress) {
  const path = edgePath(`root:${INVENTORY_WS}`, 'locations')
  const list = (await hub.call('GET', path)) as Listed
  const names = (list.items ?? []).map((l) => l.metadata?.name ?? '')
  const tick = tenths(progress, 'rollout setup: Locations labelled', names.length)
  let done = 0
  await runLoad({ count: names.length, concurrency }, async (n) => {
    const name = names[n]!
    const i = indexOfTarget(name)
    if (i === undefined) throw new Error(`rollout setup: Location ${name} is not the bench's`)
    await hub.call('PATCH', `${path}/${name}`, {
      body: ringPatch(i),
      contentType: 'application/merge-patch+json',
    })
    tick(++done)
  })
}

/** Translate over every mailbox, as the relay sends it, until every outcome is settled. */
export const translateAll = (
  hub: HubClient,
  mailboxes: readonly Mailbox[],
  o: { batch: number; calls: number }
) =>
  driveHook(
    hub,
    'translate',
    mailboxes.map((m) => m.key),
    { batch: o.batch, calls: o.calls }
  )

/** The summarize step once over the placement (every page, each deferral sent again). */
export const summarizePass = (hub: HubClient, placementKey: string) =>
  driveHook(hub, 'summarize', [placementKey], { batch: 1, calls: 1 })

/** Labels the Locations into their rings and finds each mailbox's wave. */
export async function setUpRings(
  hub: HubClient,
  at: { placementKey: string; concurrency: number },
  progress: Progress
): Promise<{ fleet: Omit<RolloutFleet, 'rolloutKey' | 'relay'>; labelMs: number }> {
  const t0 = performance.now()
  progress('rollout setup: the Locations into four rings (not timed)')
  await labelRings(hub, at.concurrency, progress)
  const { mailboxes, waves } = await fleetOf(hub)
  return {
    fleet: { mailboxes, waves, placementKey: at.placementKey },
    labelMs: performance.now() - t0,
  }
}

/** Creates the Rollout and adopts revision 1: its key, and how long that took. */
export async function adoptRollout(
  hub: HubClient,
  fleet: Omit<RolloutFleet, 'rolloutKey' | 'relay'>,
  o: { batch: number; calls: number },
  progress: Progress
): Promise<{ fleet: RolloutFleet; adoptMs: number }> {
  const wl = await hub.call('GET', `${workspacesPath('root')}/${WORKLOAD_WS}`)
  const inv = await hub.call('GET', `${workspacesPath('root')}/${INVENTORY_WS}`)
  const key = rolloutKey(specCluster(wl), ROLLOUT)
  const sizes = fleet.waves.map((w) => w.length).join(', ')
  progress(`rollout setup: the Rollout (waves of ${sizes} edges) and its revision 1 (not timed)`)
  const t0 = performance.now()
  await hub.call('POST', edgePath(`root:${WORKLOAD_WS}`, 'rollouts'), {
    body: benchRollout(),
    expect: 201,
  })
  await driveHook(hub, 'rollout', [key], { batch: 1, calls: 1 })
  const rollout = await rolloutObject(hub)
  const adopted = statusView(rollout)
  if (adopted.completedRevision !== 1 || adopted.phase !== 'Complete')
    throw new Error(`rollout setup: revision 1 not adopted (${JSON.stringify(adopted)})`)
  // the relay wakes every mailbox of the space for an adoption
  await translateAll(hub, fleet.mailboxes, o)
  await summarizePass(hub, fleet.placementKey)
  const relay = await relayView(
    hub,
    {
      workload: { path: `root:${WORKLOAD_WS}`, id: specCluster(wl) },
      inventory: { path: `root:${INVENTORY_WS}`, id: specCluster(inv) },
    },
    rollout
  )
  return { fleet: { ...fleet, rolloutKey: key, relay }, adoptMs: performance.now() - t0 }
}
