/**
 * `GET /ui/api/matrix`: a workload space's EdgePlacements (rows) against the edges they select
 * (columns, one per SyncTarget, by name), one window of columns at a time. Rows carry what the
 * summarize step wrote in each placement's status (totals, Ready) and their worst state; cells
 * come from cells.ts for the window only. `labels` filters columns by their Location's labels
 * (one list of Locations per inventory space involved); `attention` keeps the columns where some
 * cell is not ready, scanning at most MAX_SCAN columns per request and saying where to go on.
 * `staleAfterMs` is the staleness rule's threshold the page words stale edges with.
 */
import type { EdgePlacementObject } from '../../lib/apis/edge-objects.ts'
import type { CopyCounts } from '../../lib/apis/edge-summary.ts'
import { LOCATIONS } from '../../lib/apis/gvr.ts'
import { maySee } from '../../lib/auth/tokens.ts'
import { isNotFound } from '../../lib/errors.ts'
import type { Space } from '../../lib/hub/spaces.ts'
import { parseLabelSelector } from '../../lib/kube/label-selector.ts'
import { type Destination, uniqueDestinations } from '../../lib/placement/destinations.ts'
import type { CopyStateName } from '../../lib/summarize/copy-condition.ts'
import { livenessOf } from '../../lib/summarize/liveness.ts'
import { zeroCounts } from '../reconcile-summarize/placement-summary.ts'
import type { Selected } from '../reconcile-summarize/scope.ts'
import { type Cells, cellsOf } from './cells.ts'
import { type EdgeItem, edgeWindow } from './edge-window.ts'
import { needsAttention, worstOf } from './states.ts'
import { placementsOf, type View } from './view.ts'

export const MAX_SCAN = 1000

export type MatrixQuery = { offset: number; limit: number; labels?: string; attention: boolean }

export type PlacementRow = {
  name: string
  ready: 'True' | 'False' | 'Unknown'
  readyReason?: string
  readyMessage?: string
  worst: CopyStateName | null
  destinations: number
  staleDestinations: number
  objectCount: number
  totals: CopyCounts
}

export function rowOf(ep: EdgePlacementObject): PlacementRow {
  const summary = ep.status?.summary
  const ready = ep.status?.conditions?.find((c) => c.type === 'Ready')
  const totals = summary?.totals ?? zeroCounts()
  return {
    name: ep.metadata.name ?? '',
    ready: ready?.status === 'True' || ready?.status === 'False' ? ready.status : 'Unknown',
    ...(ready?.reason ? { readyReason: ready.reason } : {}),
    ...(ready?.message ? { readyMessage: ready.message } : {}),
    worst: worstOf(totals),
    destinations: summary?.destinations ?? 0,
    staleDestinations: summary?.staleDestinations ?? 0,
    objectCount: summary?.objectCount ?? 0,
    totals,
  }
}

/** Every edge some placement selects, one per mailbox, by SyncTarget name then space. */
export function columnsOf(placements: readonly Selected[]): Destination[] {
  const all = uniqueDestinations(placements.flatMap((p) => p.destinations))
  return all.sort(
    (a, b) =>
      a.syncTargetName.localeCompare(b.syncTargetName) ||
      a.cluster.localeCompare(b.cluster) ||
      a.syncTargetUID.localeCompare(b.syncTargetUID)
  )
}

/** The columns whose Location's labels match `selector` (one Location list per inventory). */
async function filterByLabels(view: View, cols: Destination[], selector: string) {
  const matches = parseLabelSelector(selector)
  const clusters = [...new Set(cols.map((d) => d.cluster))]
  const labels = new Map<string, Record<string, string>>()
  for (const cluster of clusters) {
    const path = await view.pathOf(cluster)
    if (!maySee(view.principal, path)) continue
    try {
      for (const l of await view.client.list(cluster, LOCATIONS))
        labels.set(`${cluster}/${l.metadata.name}`, l.metadata.labels ?? {})
    } catch (e) {
      if (!isNotFound(e)) throw e
    }
  }
  return cols.filter((d) => matches(labels.get(`${d.cluster}/${d.locationName}`) ?? {}))
}

type Page = { edges: EdgeItem[]; cells: Cells; scanned: number }

async function pageOf(view: View, placements: readonly Selected[], dests: Destination[]) {
  const edges = await edgeWindow(view, dests)
  return { edges, cells: await cellsOf(view, placements, { dests, edges }) }
}

/** Scans from the offset until `limit` columns need attention or MAX_SCAN were looked at. */
async function attentionPage(
  view: View,
  placements: readonly Selected[],
  cols: Destination[],
  q: MatrixQuery
): Promise<Page> {
  const out: Page = { edges: [], cells: {}, scanned: 0 }
  let at = q.offset
  while (out.edges.length < q.limit && at < cols.length && out.scanned < MAX_SCAN) {
    const chunk = cols.slice(at, at + Math.min(q.limit, MAX_SCAN - out.scanned))
    const page = await pageOf(view, placements, chunk)
    for (const e of page.edges.items) {
      out.scanned++
      at++
      const row = (name: string) => page.cells[name]?.[e.key]
      if (
        !placements.some((p) => needsAttention(row(p.placement.metadata.name ?? '')?.worst ?? null))
      )
        continue
      out.edges.push(e)
      for (const p of placements) {
        const name = p.placement.metadata.name ?? ''
        const cell = row(name)
        if (cell) out.cells[name] = { ...out.cells[name], [e.key]: cell }
      }
      if (out.edges.length === q.limit) break
    }
  }
  return out
}

export async function matrixOf(view: View, space: Space, q: MatrixQuery) {
  const placements = await placementsOf(view, space)
  let cols = columnsOf(placements)
  if (q.labels) cols = await filterByLabels(view, cols, q.labels)
  let page: Page
  if (q.attention) page = await attentionPage(view, placements, cols, q)
  else {
    const dests = cols.slice(q.offset, q.offset + q.limit)
    const { edges, cells } = await pageOf(view, placements, dests)
    page = { edges: edges.items, cells, scanned: dests.length }
  }
  const end = q.offset + page.scanned
  return {
    space: space.path,
    now: view.nowMs,
    staleAfterMs: livenessOf(view.hub).staleAfterMs,
    placements: placements.map((p) => rowOf(p.placement)),
    edges: {
      total: cols.length,
      offset: q.offset,
      ...(end < cols.length ? { next: end } : {}),
      scanned: page.scanned,
      items: page.edges,
    },
    cells: page.cells,
  }
}
