/**
 * `npm run bench -- --scale`'s rollout phase (issue 37), on the largest in-process size's stack
 * after its fan-out rows (scale.ts; `--skip-rollout` leaves it out). Untimed: the Locations into
 * four rings and the idle fleet's costs without a Rollout — a window of polls alone
 * (scale-idle.ts `pollWindow`), one summarize pass over the placement and one translate pass over
 * every mailbox, the fleet unchanged, with the store requests of each —; then the Rollout created
 * and revision 1 adopted (rollout-setup.ts) and the same costs again with it. Timed: one ConfigMap
 * changed and the four waves promoted one after another (rollout-waves.ts). The edges have no
 * agents, so every one is stale and `staleEdges: Skip` passes each gate at once: the gate's
 * reading of the standings runs for real, the time is the promotion's and the delivery's.
 */
import { cpus } from 'node:os'
import type { PollTarget } from './edge-poll.ts'
import { configMapsPath, FAN_NAMESPACE, WORKLOAD_WS } from './fan-out-objects.ts'
import type { FanOutDeps } from './fan-out-types.ts'
import { filler } from './payload.ts'
import { RINGS } from './rollout-objects.ts'
import {
  adoptRollout,
  type RolloutFleet,
  setUpRings,
  summarizePass,
  translateAll,
} from './rollout-setup.ts'
import type { IdleSide, RolloutResults } from './rollout-types.ts'
import { driveWaves } from './rollout-waves.ts'
import { pollWindow } from './scale-idle.ts'

export type RolloutPhaseDeps = Pick<
  FanOutDeps,
  'hub' | 'counter' | 'reconciles' | 'inspect' | 'storeCpuMs' | 'progress'
> & {
  baseUrl: string
  /** The fleet's poll targets, and the same with each ETag read again (content moved). */
  targets: readonly PollTarget[]
  refreshEtags(targets: readonly PollTarget[]): Promise<PollTarget[]>
}

export type RolloutPhaseOptions = {
  edges: number
  objects: number
  itemBytes: number
  concurrency: number
  batch: number
  calls: number
  placementKey: string
  pollIntervalMs: number
  intervals: number
}

/** The idle fleet's costs as it stands: polls alone, one summarize and one translate pass. */
async function idleSide(
  deps: RolloutPhaseDeps,
  at: {
    targets: readonly PollTarget[]
    fleet: Pick<RolloutFleet, 'mailboxes' | 'placementKey'>
    label: string
  },
  o: RolloutPhaseOptions
): Promise<IdleSide> {
  const { targets, fleet, label } = at
  deps.progress(`rollout: the idle fleet ${label} the Rollout (not timed)`)
  const w = await pollWindow(deps, targets, {
    intervalMs: o.pollIntervalMs,
    intervals: o.intervals,
  })
  const polls = Math.max(1, w.r.polls)
  deps.counter.reset()
  await summarizePass(deps.hub, fleet.placementKey)
  const summarizeRequests = deps.counter.total()
  deps.counter.reset()
  await translateAll(deps.hub, fleet.mailboxes, o)
  const translateRequests = deps.counter.total()
  return {
    polls: w.r.polls,
    failed: w.r.failed,
    readsPerPoll: w.reads / polls,
    writesPerPoll: w.writes / polls,
    cpuMsPerPoll: w.centerMs / polls,
    centerCpuFraction: w.centerMs / w.wallMs / cpus().length,
    summarizeRequests,
    translateRequests,
  }
}

export async function runRolloutPhase(
  deps: RolloutPhaseDeps,
  o: RolloutPhaseOptions
): Promise<{ results: RolloutResults; targets: PollTarget[] }> {
  deps.progress(`rollout: ${o.edges} edges in ${RINGS} waves`)
  const { hub } = deps
  const t0 = performance.now()
  const rings = await setUpRings(hub, o, deps.progress)
  const without = await idleSide(
    deps,
    { targets: deps.targets, fleet: rings.fleet, label: 'without' },
    o
  )
  const { fleet, adoptMs } = await adoptRollout(hub, rings.fleet, o, deps.progress)
  let targets = await deps.refreshEtags(deps.targets)
  const withIt = await idleSide(deps, { targets, fleet, label: 'with' }, o)
  deps.progress('rollout: one ConfigMap changed; waiting for the rollout step to cut revision 2')
  const payload = filler(Math.max(1, o.itemBytes - 200), 104_729)
  const changedAt = performance.now()
  await hub.call('PATCH', `${configMapsPath(`root:${WORKLOAD_WS}`, FAN_NAMESPACE)}/cm-0`, {
    body: { data: { payload } },
    contentType: 'application/merge-patch+json',
  })
  const { promotions, cutWaitMs } = await driveWaves(deps, fleet, {
    batch: o.batch,
    calls: o.calls,
    payload,
    changedAt,
  })
  targets = await deps.refreshEtags(targets)
  deps.progress(`rollout: done in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  return {
    targets,
    results: {
      edges: o.edges,
      objects: o.objects,
      waves: RINGS,
      setupMs: { label: rings.labelMs, adopt: adoptMs },
      cutWaitMs,
      promotions,
      idle: { without, with: withIt },
    },
  }
}
