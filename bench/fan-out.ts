/**
 * Phase 5: fan-out. One EdgePlacement selecting M ConfigMaps (~1 KB) in one namespace, sent to N
 * SyncTargets. After the untimed setup (fan-out-setup.ts), the workload is applied over HTTP and
 * the clock starts when the last write returns; then the where and translate steps are driven
 * through their webhooks as the relay would, and the clock stops when every mailbox's manifest
 * holds the M ConfigMaps, their Namespace and a SyncerConfig naming it (checked straight from the
 * table). Then one ConfigMap's data changes, and the same is timed until every mailbox holds its
 * new body. DynamoDB requests and body writes of the hub are counted over each timed part.
 */

import { profiled } from './cpu-profile.ts'
import {
  configMapKey,
  hashAt,
  type Mailbox,
  namespaceKey,
  readManifests,
  SYNCER_CONFIG_KEY,
  unmet,
  type WantedEntry,
} from './fan-out-check.ts'
import { driveHook, type HookOutcome } from './fan-out-hooks.ts'
import {
  configMapsPath,
  edgePath,
  edgePlacement,
  FAN_NAMESPACE,
  fanNamespace,
  namespacesPath,
  PLACEMENT,
  WORKLOAD_WS,
  workspace,
  workspacesPath,
} from './fan-out-objects.ts'
import { setUpInventory } from './fan-out-setup.ts'
import type { FanOutDeps, FanOutOptions, FanOutPhase, FanOutResults } from './fan-out-types.ts'
import { runLoad } from './load.ts'
import { configMap, filler } from './payload.ts'
import { summarize } from './stats.ts'

const MAX_ROUNDS = 5
const cmName = (i: number) => `cm-${i}`
const settledOutcome = (o: HookOutcome) => o.outcome !== 'no mailbox yet'

/**
 * A timed phase and, per mailbox, the body hash of the `tracked` key. Only the hashes are kept:
 * holding every mailbox's decoded manifest (a million entries at 10,000 edges) through the next
 * phase made the hub's garbage collector, in the same process, a quarter of that phase's CPU.
 */
type Timed = { phase: FanOutPhase; tracked: (string | undefined)[] }

/** What one timed phase drives: the `where` key, the mailboxes and what they must hold. */
type Drive = {
  where: string
  mailboxes: readonly Mailbox[]
  wants: readonly WantedEntry[]
  /** The key whose body hash per mailbox the phase hands back. */
  track: string
  label: string
}

/** From the clock start: where, then translate rounds until every mailbox holds `wants`. */
async function driveToComplete(deps: FanOutDeps, opts: FanOutOptions, d: Drive): Promise<Timed> {
  const { where, mailboxes, wants, track, label } = d
  const { counter, bodyWrites, reconciles, hub } = deps
  const start = performance.now()
  const cpu0 = process.cpuUsage()
  const storeCpu0 = deps.storeCpuMs()
  counter.reset()
  bodyWrites.reset()
  reconciles.clear()
  const whereRun = await driveHook(hub, 'where', [where], { batch: 1, calls: 1 })
  let todo = [...mailboxes]
  let translateMs = 0
  let translateCalls = 0
  let rounds = 0
  let retried = 0
  let completeMs = 0
  let cpuMs = 0
  let storeCpuMs = 0
  let tracked: (string | undefined)[] = []
  const deferred: Record<string, number> = { where: whereRun.deferred, translate: 0 }
  while (todo.length > 0) {
    if (++rounds > MAX_ROUNDS)
      throw new Error(`${label}: ${todo.length} mailboxes incomplete after ${MAX_ROUNDS} rounds`)
    if (rounds > 1) retried += todo.length
    const run = await profiled(label, () =>
      driveHook(
        hub,
        'translate',
        todo.map((m) => m.key),
        { batch: opts.batch, calls: opts.calls, settled: settledOutcome }
      )
    )
    completeMs = performance.now() - start
    const cpu = process.cpuUsage(cpu0)
    cpuMs = (cpu.user + cpu.system) / 1000
    storeCpuMs = deps.storeCpuMs() - storeCpu0
    translateMs += run.elapsedMs
    translateCalls += run.calls
    deferred.translate = (deferred.translate ?? 0) + run.deferred
    retried += run.retried
    // The check reads through the uncounted inspect store and is not part of the time.
    const manifests = await readManifests(deps.inspect, mailboxes)
    todo = mailboxes.filter((_, i) => unmet(manifests[i], wants) > 0)
    tracked = manifests.map((m) => hashAt(m, track))
    if (todo.length > 0) deps.progress(`${label}: ${todo.length} mailboxes incomplete; again`)
  }
  const runs = reconciles.runs()
  const durations = (step: string) =>
    summarize(runs.filter((r) => r.step === step).map((r) => r.durationMs))
  return {
    tracked,
    phase: {
      completeMs,
      cpuMs,
      storeCpuMs,
      whereMs: whereRun.elapsedMs,
      translateMs,
      translateCalls,
      rounds,
      retried,
      deferred,
      requests: counter.snapshot(),
      requestsTotal: counter.total(),
      bodies: bodyWrites.snapshot(),
      translateKeyMs: durations('translate'),
      whereKeyMs: durations('where'),
      ...countRuns(runs),
    },
  }
}

/** Runs by step, and those that changed nothing (translate `…: unchanged`, others `unchanged`). */
function countRuns(runs: readonly { step: string; outcome: string }[]) {
  const all: Record<string, number> = {}
  const unchanged: Record<string, number> = {}
  for (const r of runs) {
    all[r.step] = (all[r.step] ?? 0) + 1
    if (/(^|: )unchanged$/.test(r.outcome)) unchanged[r.step] = (unchanged[r.step] ?? 0) + 1
  }
  return { runs: all, unchangedRuns: unchanged }
}

const specCluster = (o: unknown) =>
  String((o as { spec?: { cluster?: unknown } } | undefined)?.spec?.cluster ?? '')

/** Runs the fan-out phase: setup, the initial fan-out, one change. */
export async function runFanOut(
  deps: FanOutDeps,
  opts: FanOutOptions & { rawPutPerSec: number }
): Promise<FanOutResults> {
  const { hub, progress } = deps
  const { targets: n, objects: m } = opts
  progress(`fan-out setup: ${n} SyncTargets, Locations and mailboxes (not timed)`)
  const inv = await setUpInventory(deps, opts)
  const wl = await hub.call('POST', workspacesPath('root'), {
    body: workspace(WORKLOAD_WS),
    expect: 201,
  })
  const wlPath = `root:${WORKLOAD_WS}`
  const whereKey = `${specCluster(wl)}/${PLACEMENT}`
  await hub.call('POST', namespacesPath(wlPath), { body: fanNamespace(), expect: 201 })

  progress(`fan-out: ${m} ConfigMaps and the EdgePlacement -> ${n} mailboxes (timed)`)
  const cmPath = configMapsPath(wlPath, FAN_NAMESPACE)
  await runLoad({ count: m, concurrency: opts.concurrency }, (i) =>
    hub.call('POST', cmPath, {
      body: configMap(FAN_NAMESPACE, cmName(i), opts.itemBytes, i),
      expect: 201,
    })
  )
  await hub.call('POST', edgePath(wlPath, 'edgeplacements'), { body: edgePlacement(), expect: 201 })
  const wants: WantedEntry[] = [
    ...Array.from({ length: m }, (_, i) => ({ key: configMapKey(FAN_NAMESPACE, cmName(i)) })),
    { key: namespaceKey(FAN_NAMESPACE) },
    { key: SYNCER_CONFIG_KEY, notHash: inv.emptySyncerConfigHash },
  ]
  const changed = configMapKey(FAN_NAMESPACE, cmName(0))
  const initial = await driveToComplete(deps, opts, {
    where: whereKey,
    mailboxes: inv.mailboxes,
    wants,
    track: changed,
    label: 'fan-out',
  })
  progress(`fan-out complete in ${(initial.phase.completeMs / 1000).toFixed(1)} s`)

  progress(`fan-out change: 1 ConfigMap -> ${n} mailboxes (timed)`)
  const oldHash = initial.tracked[0] ?? ''
  const payload = filler(Math.max(1, opts.itemBytes - 200), 7919)
  await hub.call('PATCH', `${cmPath}/${cmName(0)}`, {
    body: { data: { payload } },
    contentType: 'application/merge-patch+json',
  })
  const change = await driveToComplete(deps, opts, {
    where: whereKey,
    mailboxes: inv.mailboxes,
    wants: [{ key: changed, notHash: oldHash }],
    track: changed,
    label: 'fan-out change',
  })
  await checkChanged(deps, change.tracked, changed, payload)
  progress(`fan-out change complete in ${(change.phase.completeMs / 1000).toFixed(1)} s`)
  return {
    targets: n,
    objects: m,
    itemBytes: opts.itemBytes,
    batch: opts.batch,
    calls: opts.calls,
    setup: {
      createMs: inv.createMs,
      mailboxMs: inv.mailboxMs,
      translateMs: inv.translateMs,
      ...(inv.requests ? { requests: inv.requests } : {}),
    },
    initial: initial.phase,
    change: change.phase,
    rawPutPerSec: opts.rawPutPerSec,
    placementKey: whereKey,
  }
}

/** Every mailbox holds the same new body for the changed ConfigMap, with the new data. */
async function checkChanged(
  deps: FanOutDeps,
  tracked: readonly (string | undefined)[],
  key: string,
  payload: string
): Promise<void> {
  const hashes = new Set(tracked)
  if (hashes.size !== 1)
    throw new Error(`fan-out change: ${hashes.size} different bodies for ${key}`)
  const [hash] = hashes
  const body = (await deps.inspect.getBodies([hash ?? ''])).get(hash ?? '')
  const data = (body as { data?: { payload?: unknown } } | undefined)?.data
  if (data?.payload !== payload) throw new Error(`fan-out change: ${key} lacks the new data`)
}
