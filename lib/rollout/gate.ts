/**
 * A wave's gate (docs/architecture/rollout.md, "Gates"): from where the wave's edges stand at the
 * revision in flight — ready, failed, stale (not reporting), pending (not there yet or not ready)
 * — and the Rollout's gate settings, whether the wave passes now, must wait, or has failed. Stale
 * edges count per `staleEdges`: Skip leaves them out of the gate, Wait counts them as not ready
 * (so the gate waits for them until the deadline), Fail counts them failed. Failures beyond
 * `maxFailedEdges` (a count, or a percentage of the wave once `minEdgesTried` edges have
 * reported) fail the wave; so does its deadline passing before `readyPercent` of the counted edges
 * are ready. An empty wave passes. Soaking (staying passing) is the caller's: a pass is a moment.
 * Pure.
 */
import { GATE_DEFAULTS, type RolloutGate, resolveCount } from '../apis/edge-rollout.ts'

/** Where a wave's edges stand at the revision in flight. */
export type WaveTally = {
  edges: number
  ready: number
  failed: number
  stale: number
  pending: number
}

export type GateVerdict =
  | { kind: 'pass' }
  | { kind: 'wait'; message: string }
  | { kind: 'fail'; reason: 'TooManyFailures' | 'DeadlineExceeded'; message: string }

/** The gate with every default filled in. */
export const gateOf = (gate: RolloutGate | undefined) => ({ ...GATE_DEFAULTS, ...(gate ?? {}) })

const edges = (n: number) => `${n} edge${n === 1 ? '' : 's'}`

/** The verdict for a wave promoted at `promotedAtMs`, judged at `nowMs`. */
export function judgeWave(
  gate: RolloutGate | undefined,
  t: WaveTally,
  promotedAtMs: number,
  nowMs: number
): GateVerdict {
  const g = gateOf(gate)
  const failed = t.failed + (g.staleEdges === 'Fail' ? t.stale : 0)
  const counted = t.edges - (g.staleEdges === 'Skip' ? t.stale : 0)
  const percentFailures = typeof g.maxFailedEdges === 'string'
  const tried = t.ready + t.failed
  const allowed = resolveCount(g.maxFailedEdges, t.edges)
  if (failed > allowed && (!percentFailures || tried >= g.minEdgesTried))
    return {
      kind: 'fail',
      reason: 'TooManyFailures',
      message: `${edges(failed)} failed of ${t.edges}, more than the ${allowed} maxFailedEdges allows`,
    }
  const needed = Math.ceil((g.readyPercent * counted) / 100)
  if (t.ready >= needed) return { kind: 'pass' }
  const short = `${t.ready} of ${needed} needed ready (${t.pending} pending, ${t.stale} stale)`
  if (nowMs >= promotedAtMs + g.deadlineSeconds * 1000)
    return {
      kind: 'fail',
      reason: 'DeadlineExceeded',
      message: `${short} ${g.deadlineSeconds}s after the wave was promoted`,
    }
  return { kind: 'wait', message: short }
}
