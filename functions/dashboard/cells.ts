/**
 * The matrix's cells for one window of edges: for every placement of the space and every edge of
 * the window it selects, how many of its objects are in each state there and the worst of them.
 * The states are the summarize step's own (observe.ts reads the window's mailboxes, object-writes'
 * `conditions` classifies each pair, lib/summarize/copy-condition.ts), so a cell never disagrees
 * with the placement's status.summary; only the window's mailboxes are read. They are asked for the
 * placements' own space (their `kcp.io/cluster`), so a copy another space holds at an edge counts
 * as absent there (observe.ts), exactly as in the summary. Where a Rollout of the space governs
 * some of a placement's objects, a cell also says which revisions their copies hold there, read
 * from the stamps of the bodies observe.ts read (cell-revisions.ts).
 */
import type { CopyCounts } from '../../lib/apis/edge-summary.ts'
import { CLUSTER_ANNOTATION } from '../../lib/kube/types.ts'
import { type Destination, mailboxOfDestination } from '../../lib/placement/destinations.ts'
import type { SourceObject } from '../../lib/placement/types.ts'
import type { CopyStateName } from '../../lib/summarize/copy-condition.ts'
import { livenessOf } from '../../lib/summarize/liveness.ts'
import { conditions } from '../reconcile-summarize/object-writes.ts'
import { observe, type Pair } from '../reconcile-summarize/observe.ts'
import { zeroCounts } from '../reconcile-summarize/placement-summary.ts'
import type { Selected } from '../reconcile-summarize/scope.ts'
import { type CellRevision, cellRevisions } from './cell-revisions.ts'
import type { EdgeWindow } from './edge-window.ts'
import type { SpaceRollouts } from './rollouts.ts'
import { worstOf } from './states.ts'
import type { View } from './view.ts'

export type Cell = {
  worst: CopyStateName | null
  counts: CopyCounts
  /** Per Rollout governing some of the placement's objects: what their copies hold here. */
  revisions?: Record<string, CellRevision>
}
/** By placement name, then edge key (mailbox); no entry: the placement does not select the edge. */
export type Cells = Record<string, Record<string, Cell>>

/** The placements' destinations among `window`, one per mailbox. */
function inWindow(p: Selected, keys: ReadonlySet<string>): Destination[] {
  const seen = new Set<string>()
  return p.destinations.filter((d) => {
    const k = mailboxOfDestination(d)
    if (!keys.has(k) || seen.has(k)) return false
    seen.add(k)
    return true
  })
}

export async function cellsOf(
  view: View,
  placements: readonly Selected[],
  window: { dests: readonly Destination[]; edges: EdgeWindow },
  rollouts?: Pick<SpaceRollouts, 'governorOf'>
): Promise<Cells> {
  const keys = new Set(window.dests.map(mailboxOfDestination))
  const mine = placements.map((p) => ({ p, dests: inWindow(p, keys) }))
  const byObject = new Map<SourceObject, Destination[]>()
  for (const { p, dests } of mine)
    for (const o of p.objects) {
      const list = byObject.get(o)
      if (list) list.push(...dests)
      else byObject.set(o, [...dests])
    }
  const pairs: Pair[] = [...byObject].map(([object, destinations]) => ({ object, destinations }))
  const reads = { ...view.reads, inventory: window.edges.inventory }
  const spaceId = placements[0]?.placement.metadata.annotations?.[CLUSTER_ANNOTATION] ?? ''
  const seen = await observe(reads, view.hub.projections, {
    spaceId,
    pairs,
    destinations: window.dests,
  })
  const condition = conditions(seen, view.nowMs, livenessOf(view.hub))
  const cells: Cells = {}
  for (const { p, dests } of mine) {
    const row: Record<string, Cell> = {}
    for (const d of dests) {
      const counts = zeroCounts()
      for (const o of p.objects) counts[condition(o, d).state]++
      const revisions =
        rollouts && cellRevisions(p.objects, rollouts.governorOf, (o) => seen.facts(o, d).body)
      row[mailboxOfDestination(d)] = {
        worst: worstOf(counts),
        counts,
        ...(revisions ? { revisions } : {}),
      }
    }
    cells[p.placement.metadata.name ?? ''] = row
  }
  return cells
}
