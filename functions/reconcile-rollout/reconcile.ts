/**
 * The rollout step for one key (`<workload-space-id>/<rollout-name>`;
 * docs/architecture/placement.md, "Rollout"): make the Rollout's status say where its newest
 * revision stands. It re-reads the Rollout, the objects it governs (governed.ts: an older
 * Rollout's objects left out, and a Conflict condition and Warning Event for any overlap,
 * conflicts.ts) and its stored revisions (lib/rollout/revision-store.ts), cuts
 * a revision when the governed content moved and settled (revisions.ts; the first revision at
 * once, adopted as completed), reads the edges of each wave (lib/rollout/wave-edges.ts) and
 * where they stand (the `tally`, tally.ts: the summarize step's standings, standings-tally.ts,
 * unless a test injects one), and lets lib/rollout/progress.ts decide the next status. Then it
 * writes the status when it differs (status.ts: resourceVersion precondition), records the Events
 * progress reported, and only after the status write removes the revision records and bodies no
 * status names (keeping at most the completed revision, the one in flight, what waves hold and
 * the newest). Level-based: it never learns what woke it, and asks to be run again when a settle,
 * soak or deadline ends, and every WAITING_POLL_MS while its current wave waits on its edges (so
 * a standing no event announces is seen within seconds). A status write that meets a Conflict (a
 * spec edit or a racing run) starts the run again on fresh reads, up to three times. A failed
 * read throws before anything is written or removed; an absent or
 * deleting Rollout is left alone (its Events go with it; its records are keyed by its uid).
 */
import { type DecodeProblem, decodeObject, reportInvalid } from '../../lib/apis/decode.ts'
import { RolloutSchema } from '../../lib/apis/edge-rollout.ts'
import { ROLLOUTS } from '../../lib/apis/gvr.ts'
import type { Condition } from '../../lib/apis/meta.ts'
import { isConflict } from '../../lib/errors.ts'
import type { Logger } from '../../lib/log.ts'
import type { ReconcileResult } from '../../lib/reconcile/types.ts'
import { TerminalError } from '../../lib/reconcile/types.ts'
import { progress } from '../../lib/rollout/progress.ts'
import { createRevisionStore } from '../../lib/rollout/revision-store.ts'
import { readWaveEdges } from '../../lib/rollout/wave-edges.ts'
import type { KvStore } from '../../lib/store/types.ts'
import { CONFLICT, conflictCondition, conflictEvent } from './conflicts.ts'
import { recordEvents } from './events.ts'
import { type GovernedDeps, readGoverned } from './governed.ts'
import { parseRolloutKey, ROLLOUT_STEP } from './names.ts'
import { keptRevisions, nextRevision } from './revisions.ts'
import { standingsTally } from './standings-tally.ts'
import { withConditions, writeStatus } from './status.ts'
import type { Tally } from './tally.ts'

export type RolloutDeps = GovernedDeps & {
  kv: KvStore
  log: Logger
  now: () => Date
  /** Where the waves' edges stand; default: the summarize step's standings (standings-tally.ts). */
  tally?: Tally
}

const minOf = (a: number | undefined, b: number | undefined) =>
  a === undefined ? b : b === undefined ? a : Math.min(a, b)

/** How often a Rollout whose current wave waits on its edges looks at their standings again. */
export const WAITING_POLL_MS = 5_000
/** Runs in one invocation when the status write meets a Conflict (a spec edit, a racing run). */
const CONFLICT_ATTEMPTS = 3

export async function reconcileRollout(deps: RolloutDeps, key: string): Promise<ReconcileResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await reconcileOnce(deps, key)
    } catch (e) {
      if (!isConflict(e) || attempt >= CONFLICT_ATTEMPTS) throw e
    }
  }
}

async function reconcileOnce(deps: RolloutDeps, key: string): Promise<ReconcileResult> {
  const parsed = parseRolloutKey(key)
  if (!parsed) throw new TerminalError(`"${key}" is not a rollout key (<space-id>/<name>)`)
  const { spaceId, name } = parsed
  const stored = await deps.client.get(spaceId, ROLLOUTS, name)
  if (!stored || stored.metadata.deletionTimestamp) return { outcome: 'absent' }
  const decoded = decodeObject(RolloutSchema, stored)
  if (!decoded.ok) {
    reportInvalid(deps.log, ROLLOUT_STEP, decoded.problem as DecodeProblem)
    return { outcome: 'invalid Rollout: skipped' }
  }
  const rollout = decoded.value
  const nowMs = deps.now().getTime()
  const ref = { spaceId, uid: stored.metadata.uid ?? '' }
  const store = createRevisionStore(deps.kv)
  const content = await readGoverned(deps, spaceId, stored)
  const waves = await readWaveEdges(deps.client, spaceId, rollout.spec)
  const revisions = await nextRevision(store, ref, content, nowMs)
  const tally = deps.tally ?? standingsTally(deps.kv)
  const inFlight = Math.max(rollout.status?.revision ?? 0, revisions.newest.number)
  const counters = await tally({
    spaceId,
    rollout: { name, uid: ref.uid, spec: rollout.spec },
    revision: inFlight,
    waves,
  })
  const decided = progress({
    rollout,
    newest: revisions.newest.number,
    waves: waves.map((w, i) => ({
      uids: w.edges.map((e) => e.syncTargetUid),
      tally: counters[i] ?? (() => ({ edges: 0, ready: 0, failed: 0, stale: 0, pending: 0 })),
    })),
    nowMs,
  })
  const previous = rollout.status?.conditions as Condition[] | undefined
  const generation = stored.metadata.generation ?? 0
  const conflict = conflictCondition(content.overlaps, generation)
  const status = withConditions(decided.status, previous, nowMs, [conflict])
  const warned = conflictEvent(
    conflict,
    previous?.find((c) => c.type === CONFLICT)
  )
  const events = warned ? [...decided.events, warned] : decided.events
  const done: string[] = []
  if (revisions.cut !== undefined) done.push(`revision ${revisions.cut} cut`)
  if (await writeStatus(deps.client, spaceId, stored, status)) {
    done.push('status updated')
    const n = await recordEvents(deps, { spaceId, rollout: stored, nowMs }, events)
    if (n > 0) done.push(`${n} event${n === 1 ? '' : 's'}`)
  }
  const keep = keptRevisions(status, revisions.newest.number)
  const stale = revisions.records.filter((r) => !keep.has(r.number))
  if (stale.length > 0) {
    await store.prune(ref, keep)
    done.push(`${stale.length} revision${stale.length === 1 ? '' : 's'} removed`)
  }
  const wakeAfter =
    revisions.wakeAtMs === undefined ? undefined : Math.max(0, revisions.wakeAtMs - nowMs)
  // Waiting on edges, it looks again soon even if no summary change wakes it.
  const waiting = status.phase === 'Progressing' && status.currentWave !== undefined
  const requeueAfterMs = minOf(
    minOf(decided.requeueAfterMs, wakeAfter),
    waiting ? WAITING_POLL_MS : undefined
  )
  return {
    outcome: done.length > 0 ? done.join(', ') : 'unchanged',
    ...(requeueAfterMs !== undefined ? { requeueAfterMs } : {}),
  }
}
