/**
 * Where a Rollout's edges stand, as the rollout step asks for it (docs/architecture/rollout.md,
 * "Gates"): the `tally` dependency answers, for a Rollout, the revision in flight and its waves'
 * edges, per wave a counter of the edges below a cut at a revision — ready, failed (with the first
 * failures), stale, pending. `countWave` does the counting from one answer per edge, so a source
 * of per-edge states only says where each edge stands: the step's is standings-tally.ts, over
 * the summarize step's standings.
 */
import { MAX_WAVE_FAILURES, type RolloutSpec } from '../../lib/apis/edge-rollout.ts'
import { belowCut } from '../../lib/rollout/edge-order.ts'
import type { WaveFailure, WaveView } from '../../lib/rollout/progress.ts'
import type { RolloutEdge, WaveEdges } from '../../lib/rollout/wave-edges.ts'

export type { RolloutEdge, WaveEdges } from '../../lib/rollout/wave-edges.ts'

export type TallyInput = {
  spaceId: string
  rollout: { name: string; uid: string; spec: RolloutSpec }
  /** The revision in flight. */
  revision: number
  waves: readonly WaveEdges[]
}

/** Per wave (in `waves` order), its counts at a revision for the edges below a cut. */
export type Tally = (input: TallyInput) => Promise<WaveView['tally'][]>

/** Where one edge stands at a revision. */
export type EdgeStanding =
  | { state: 'ready' | 'stale' | 'pending' }
  | { state: 'failed'; reason: string; message?: string }

/** The counts of the edges of `edges` below `cut` at `revision`, from each one's standing. */
export function countWave(
  edges: readonly RolloutEdge[],
  revision: number,
  cut: number,
  standing: (edge: RolloutEdge, revision: number) => EdgeStanding
): ReturnType<WaveView['tally']> {
  const t = { edges: 0, ready: 0, failed: 0, stale: 0, pending: 0 }
  const failures: WaveFailure[] = []
  for (const e of edges) {
    if (!belowCut(revision, e.syncTargetUid, cut)) continue
    t.edges++
    const s = standing(e, revision)
    t[s.state]++
    if (s.state === 'failed' && failures.length < MAX_WAVE_FAILURES)
      failures.push({
        cluster: e.cluster,
        syncTarget: e.syncTargetName,
        reason: s.reason,
        ...(s.message ? { message: s.message } : {}),
      })
  }
  return failures.length > 0 ? { ...t, failures } : t
}
