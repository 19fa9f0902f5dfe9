/**
 * The revisions a cell's copies hold (docs/architecture/dashboard.md, "Rollouts"): for one
 * placement at one edge, per Rollout governing some of its objects, the lowest and highest
 * revision stamped on those objects' copies as the mailbox holds them (the bodies the cell reads
 * anyway, `edge.kcp.io/rollout-revision`: lib/rollout/stamp.ts), how many objects it governs and
 * how many of their copies carry no stamp of it there (not sent yet, or sent before the Rollout
 * was adopted). Read, never computed from the Rollout's status. Pure.
 */
import type { KubeObject } from '../../lib/kube/types.ts'
import type { SourceObject } from '../../lib/placement/types.ts'
import { stampOf } from '../../lib/rollout/stamp.ts'

export type CellRevision = {
  lowest: number | null
  highest: number | null
  objects: number
  unstamped: number
}

/** Per governing Rollout, what the copies of `objects` hold; undefined when none is governed. */
export function cellRevisions(
  objects: readonly SourceObject[],
  governorOf: (o: SourceObject) => string | undefined,
  bodyOf: (o: SourceObject) => KubeObject | undefined
): Record<string, CellRevision> | undefined {
  let out: Record<string, CellRevision> | undefined
  for (const o of objects) {
    const rollout = governorOf(o)
    if (!rollout) continue
    out ??= {}
    const r = out[rollout] ?? { lowest: null, highest: null, objects: 0, unstamped: 0 }
    out[rollout] = r
    r.objects++
    const body = bodyOf(o)
    const stamp = body ? stampOf(body) : undefined
    if (!stamp || stamp.rollout !== rollout) {
      r.unstamped++
      continue
    }
    r.lowest = r.lowest === null ? stamp.revision : Math.min(r.lowest, stamp.revision)
    r.highest = r.highest === null ? stamp.revision : Math.max(r.highest, stamp.revision)
  }
  return out
}
