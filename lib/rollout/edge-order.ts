/**
 * The order in which a wave under `maxEdges` promotes its edges, stable without a stored list:
 * each edge's rank is a hash of the revision and its SyncTarget's uid, in [0, 1). The rollout step
 * promotes the edges ranked below the wave's cut (`status.waves[].cut`), raising the cut by at
 * most `maxEdges` edges at a time; translation asks only whether one edge's rank is below it. An
 * edge that joins mid-wave falls on one side of the cut for good, and a new revision reshuffles
 * the order (the same edges are not always first). Pure.
 */
import { fnv1a } from '../fnv.ts'

const SPACE = 2 ** 32

/** The edge's rank for `revision`, in [0, 1). */
export const edgeRank = (revision: number, syncTargetUid: string) =>
  fnv1a(`${revision}/${syncTargetUid}`) / SPACE

/** Whether the edge is among the promoted of a wave cut at `cut` (1 promotes every edge). */
export const belowCut = (revision: number, syncTargetUid: string, cut: number) =>
  cut >= 1 || edgeRank(revision, syncTargetUid) < cut

/**
 * The cut that promotes `count` more edges of `uids` (the wave's edges) at `revision` beyond
 * those below `cut` now: just above the rank of the last one taken, 1 once every edge is.
 */
export function raiseCut(
  revision: number,
  uids: readonly string[],
  cut: number,
  count: number
): number {
  const waiting = uids
    .map((uid) => edgeRank(revision, uid))
    .filter((rank) => rank >= cut)
    .sort((a, b) => a - b)
  if (count >= waiting.length) return 1
  if (count <= 0) return cut
  const last = waiting[count - 1] ?? cut
  const next = waiting[count] ?? 1
  return (last + next) / 2
}
