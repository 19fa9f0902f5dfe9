/**
 * One step of a Rollout's progress (docs/architecture/placement.md, "Rollout"): from its
 * spec, the status the rollout step wrote last, the newest revision cut and where each wave's
 * promoted edges stand, the next status, the Events to record and when to look again. Level-based
 * and pure: the same inputs give the same answer, and every moment the rollout waits for (a soak,
 * a deadline) is a requeue, never a sleep.
 *
 * - A Rollout's first revision is adopted as completed: it governs changes, not what runs.
 * - A newer revision supersedes the one in flight from the first wave; waves it already reached
 *   keep that revision until the newer one reaches them.
 * - `spec.paused` holds everything where it is (phase Paused); a revision cut meanwhile is named
 *   (`pendingRevision`) and starts from the first wave on resume.
 * - The current wave is judged by its gate (gate.ts). Passing, it soaks for `soakSeconds`; then
 *   the next batch of its edges is promoted (`maxEdges`), or the next wave (waiting in
 *   WaitingForApproval while it needs an approval for this revision), or the rollout is Complete.
 * - A failed gate with `onFailure: Pause` stops where it is (phase Paused, condition GateFailed);
 *   an approval of that wave at that revision added since (the generation moved) resumes it with a
 *   fresh deadline. With `Rollback` every wave at the failed revision goes back to the completed
 *   one (phase RolledBack) until the next revision.
 */
import type { RolloutStatus, WaveStatus } from '../apis/edge-rollout.ts'
import { gateOf, judgeWave, type WaveTally } from './gate.ts'
import {
  approved,
  blankWave,
  carriedWaves,
  iso,
  later,
  msOf,
  type ProgressInput,
  type ProgressResult,
  type State,
  withoutFailure,
} from './progress-state.ts'
import { fail, nextAfterPass, startWave } from './wave-moves.ts'

export type {
  ProgressInput,
  ProgressResult,
  RolloutEvent,
  WaveFailure,
  WaveView,
} from './progress-state.ts'

/** Judges the current wave and moves on when it passed its soak. */
function judgeCurrent(s: State, inp: ProgressInput): void {
  const spec = inp.rollout.spec
  const i = s.current
  const wave = spec.waves[i]
  const w = s.waves[i]
  if (!wave || !w) return
  if (w.failedAt) {
    const resumed =
      approved(spec, wave, s.revision) &&
      (inp.rollout.metadata.generation ?? 0) > (w.failedGeneration ?? 0)
    if (!resumed) {
      s.phase = 'Paused'
      return
    }
    s.waves[i] = { ...withoutFailure(w), promotedAt: iso(inp.nowMs) }
  }
  const current = s.waves[i] as WaveStatus
  const promotedAt = msOf(current.promotedAt)
  const verdict = judgeWave(spec.gate, talliedEdges(current), promotedAt, inp.nowMs)
  if (verdict.kind === 'fail') {
    fail(s, inp, verdict.reason, verdict.message)
    return
  }
  if (verdict.kind === 'wait') {
    const { passingSince, ...rest } = current
    s.waves[i] = rest
    s.phase = 'Progressing'
    later(s, promotedAt + gateOf(spec.gate).deadlineSeconds * 1000, inp.nowMs)
    return
  }
  const since = current.passingSince ? msOf(current.passingSince) : inp.nowMs
  const soakEnd = since + (current.edges === 0 ? 0 : gateOf(spec.gate).soakSeconds * 1000)
  s.waves[i] = { ...current, passingSince: iso(since) }
  if (inp.nowMs < soakEnd) {
    s.phase = 'WaitingForSoak'
    later(s, soakEnd, inp.nowMs)
    return
  }
  nextAfterPass(s, inp)
}

const talliedEdges = (w: WaveStatus): WaveTally => ({
  edges: w.edges,
  ready: w.ready,
  failed: w.failed,
  stale: w.stale,
  pending: w.pending,
})

/** Refreshes every wave's counts at its own revision and cut. */
function tallyAll(s: State, inp: ProgressInput): void {
  s.waves = s.waves.map((w, i) => {
    const view = inp.waves[i]
    if (!view) return w
    const t = view.tally(w.revision ?? s.completed, w.cut ?? 1)
    const { failures, ...counts } = t
    const out: WaveStatus = { ...w, ...counts }
    if (failures && failures.length > 0) out.failures = failures
    else delete out.failures
    return out
  })
}

/** Moves the rollout on by one decision (nothing while the user has paused it). */
function decide(s: State, inp: ProgressInput, previous: number): void {
  const spec = inp.rollout.spec
  if (s.revision === 0) {
    s.revision = s.completed = inp.newest
    s.waves = spec.waves.map((w) => blankWave(w.name, inp.newest))
    s.current = -1
    return
  }
  if (inp.newest > s.revision) {
    s.revision = inp.newest
    s.waves = s.waves.map(withoutFailure)
    s.events.push({
      type: 'Normal',
      reason: 'NewRevision',
      message: `revision ${inp.newest} supersedes revision ${previous}`,
    })
    startWave(s, inp, 0)
    return
  }
  if (s.current < 0) return
  if (s.waves[s.current]?.revision !== s.revision) startWave(s, inp, s.current)
  else judgeCurrent(s, inp)
}

/** The next status of a Rollout; see the header for the rules. */
export function progress(inp: ProgressInput): ProgressResult {
  const { spec, status = {} } = inp.rollout
  const completed = status.completedRevision ?? 0
  const s: State = {
    revision: status.revision ?? 0,
    completed,
    current: spec.waves.findIndex((w) => w.name === status.currentWave),
    phase: 'Progressing',
    waves: carriedWaves(spec, status, completed),
    events: [],
  }
  tallyAll(s, inp)
  if (!spec.paused) decide(s, inp, status.revision ?? 0)
  if (s.current < 0) s.phase = s.revision === s.completed ? 'Complete' : 'RolledBack'
  if (spec.paused) s.phase = 'Paused'
  tallyAll(s, inp)
  const out: RolloutStatus = {
    observedGeneration: inp.rollout.metadata.generation ?? 0,
    phase: s.phase,
    revision: s.revision,
    completedRevision: s.completed,
    waves: s.waves,
  }
  // Paused, a newer revision waits without moving anything: the status names it.
  if (spec.paused && inp.newest > s.revision) out.pendingRevision = inp.newest
  const currentWave = spec.waves[s.current]?.name
  if (currentWave) out.currentWave = currentWave
  return {
    status: out,
    events: s.events,
    ...(s.requeue !== undefined ? { requeueAfterMs: s.requeue } : {}),
  }
}
