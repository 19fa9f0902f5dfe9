/**
 * The types of a Rollout's progress step (progress.ts) and the small state it carries while it
 * decides: the revision in flight, the completed one, the current wave, the phase, the wave
 * statuses, the Events and the soonest requeue. Pure helpers only.
 */
import type {
  Rollout,
  RolloutPhase,
  RolloutStatus,
  RolloutWave,
  WaveStatus,
} from '../apis/edge-rollout.ts'
import type { WaveTally } from './gate.ts'

export type WaveFailure = NonNullable<WaveStatus['failures']>[number]

/** Where the promoted edges of wave `index` stand at `revision` (those below `cut`). */
export type WaveView = {
  /** The SyncTarget uids of the wave's edges (for the next batch's cut). */
  uids: readonly string[]
  tally(revision: number, cut: number): WaveTally & { failures?: WaveFailure[] }
}

export type ProgressInput = {
  rollout: Pick<Rollout, 'spec' | 'status'> & { metadata: { generation?: number } }
  /** The newest revision the rollout step has cut (≥ 1). */
  newest: number
  waves: readonly WaveView[]
  nowMs: number
}

export type RolloutEvent = { type: 'Normal' | 'Warning'; reason: string; message: string }

export type ProgressResult = {
  status: RolloutStatus
  events: RolloutEvent[]
  /** When to run again without an event (a soak or a deadline ends). */
  requeueAfterMs?: number
}

export const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
export const msOf = (t: string | undefined) => (t ? Date.parse(t) : Number.NaN)

export type State = {
  revision: number
  completed: number
  current: number
  phase: RolloutPhase
  waves: WaveStatus[]
  events: RolloutEvent[]
  requeue?: number
}

export const blankWave = (name: string, revision: number): WaveStatus => ({
  name,
  revision,
  cut: 1,
  edges: 0,
  ready: 0,
  failed: 0,
  stale: 0,
  pending: 0,
})

/** The stored wave statuses, matched to the spec's waves by name; a new wave holds `completed`. */
export function carriedWaves(spec: Rollout['spec'], status: RolloutStatus, completed: number) {
  const byName = new Map((status.waves ?? []).map((w) => [w.name, w]))
  return spec.waves.map((w) => byName.get(w.name) ?? blankWave(w.name, completed))
}

export const approved = (spec: Rollout['spec'], wave: RolloutWave, revision: number): boolean =>
  (spec.approvals ?? []).some((a) => a.wave === wave.name && a.revision === revision)

export function later(s: State, atMs: number, nowMs: number) {
  const after = Math.max(0, atMs - nowMs)
  s.requeue = s.requeue === undefined ? after : Math.min(s.requeue, after)
}

export function withoutFailure(w: WaveStatus): WaveStatus {
  const { failedAt, failedGeneration, failureReason, failureMessage, ...rest } = w
  return rest
}
