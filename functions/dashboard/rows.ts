/**
 * The matrix's rows: one per EdgePlacement, what its header shows — Ready (the placement's own
 * condition), how many edges it is at and how many of them are stale, how many objects it sends,
 * and its copies (object × edge pairs) counted by state with the worst of them. Edges and copies
 * are two counts, never one list of tallies. Without a label filter a row is what the summarize
 * step last wrote in `status.summary` (every edge the placement selects). With one it counts the
 * matching edges only, from the cells of every matching column (cells.ts: the summarize step's
 * states, read now), so the row agrees with the cells the filter leaves; `allDestinations` still
 * says how many edges the placement selects in all.
 */
import type { EdgePlacementObject } from '../../lib/apis/edge-objects.ts'
import type { CopyCounts } from '../../lib/apis/edge-summary.ts'
import { COPY_STATES, type CopyStateName } from '../../lib/summarize/copy-condition.ts'
import { zeroCounts } from '../reconcile-summarize/placement-summary.ts'
import type { Selected } from '../reconcile-summarize/scope.ts'
import type { Cells } from './cells.ts'
import type { EdgeItem } from './edge-window.ts'
import { worstOf } from './states.ts'

export type PlacementRow = {
  name: string
  ready: 'True' | 'False' | 'Unknown'
  readyReason?: string
  readyMessage?: string
  /** The worst state of the copies counted. */
  worst: CopyStateName | null
  /** The edges counted: every edge the placement selects, or those matching the filter. */
  destinations: number
  staleDestinations: number
  /** Every edge the placement selects, filter or not. */
  allDestinations: number
  objectCount: number
  /** The copies at the edges counted, by state. */
  totals: CopyCounts
}

function readyOf(ep: EdgePlacementObject) {
  const ready = ep.status?.conditions?.find((c) => c.type === 'Ready')
  return {
    name: ep.metadata.name ?? '',
    ready: ready?.status === 'True' || ready?.status === 'False' ? ready.status : 'Unknown',
    ...(ready?.reason ? { readyReason: ready.reason } : {}),
    ...(ready?.message ? { readyMessage: ready.message } : {}),
  } as const
}

/** The row of `ep` over every edge it selects, from its status.summary. */
export function rowOf(ep: EdgePlacementObject): PlacementRow {
  const summary = ep.status?.summary
  const totals = summary?.totals ?? zeroCounts()
  return {
    ...readyOf(ep),
    worst: worstOf(totals),
    destinations: summary?.destinations ?? 0,
    staleDestinations: summary?.staleDestinations ?? 0,
    allDestinations: summary?.destinations ?? 0,
    objectCount: summary?.objectCount ?? 0,
    totals,
  }
}

/** The row of `p` over the edges of `edges` (every column matching the filter) and their cells. */
export function filteredRowOf(
  p: Selected,
  at: { edges: readonly EdgeItem[]; cells: Cells }
): PlacementRow {
  const name = p.placement.metadata.name ?? ''
  const row = at.cells[name] ?? {}
  const stale = new Set(at.edges.filter((e) => e.stale).map((e) => e.key))
  const totals = zeroCounts()
  const keys = Object.keys(row)
  for (const k of keys) for (const s of COPY_STATES) totals[s] += row[k]?.counts[s] ?? 0
  return {
    ...readyOf(p.placement),
    worst: worstOf(totals),
    destinations: keys.length,
    staleDestinations: keys.filter((k) => stale.has(k)).length,
    allDestinations: p.placement.status?.summary?.destinations ?? p.destinations.length,
    objectCount: p.objects.length,
    totals,
  }
}
