/**
 * `GET /ui/api/matrix`: a workload space's EdgePlacements (rows) against the edges they select
 * (columns, one per SyncTarget, by name), one window of columns at a time. Rows (rows.ts) carry
 * what the summarize step wrote in each placement's status (totals, Ready) and their worst state;
 * cells come from cells.ts for the window only. `labels` filters columns by their Location's
 * labels (one list of Locations per inventory space involved), and then the rows count the
 * matching edges only (`rowScope: 'filter'`): all matching columns are read, when they are at most
 * MAX_FILTERED_ROWS; a wider filter's rows count every edge (`rowScope: 'all'`), as without one.
 * `attention` keeps the columns where some cell is not ready, scanning a window of columns at a
 * time (the page's `limit`) while the next one fits in SHARES.attentionScan of the request's
 * subrequest budget (each taken to cost the most one has; the first always runs), and at most
 * MAX_SCAN columns, then saying where to go on (`next`): the page asks again from there.
 * `staleAfterMs` is the staleness rule's threshold the page words stale edges with. With Rollouts
 * in the space (rollouts.ts, one list per request): `rollouts` says each one's phase, revisions
 * and waves, a row names the Rollouts governing its objects, an edge its wave under each, and a
 * cell the revisions its copies hold (read from the mailbox bodies the cells read anyway).
 */
import { LOCATIONS } from '../../lib/apis/gvr.ts'
import { maySee } from '../../lib/auth/tokens.ts'
import { currentInvocation, hasRoom, withShare } from '../../lib/budget/frames.ts'
import { SHARES } from '../../lib/budget/limits.ts'
import { isNotFound } from '../../lib/errors.ts'
import type { Space } from '../../lib/hub/spaces.ts'
import { parseLabelSelector } from '../../lib/kube/label-selector.ts'
import {
  type Destination,
  mailboxOfDestination,
  uniqueDestinations,
} from '../../lib/placement/destinations.ts'
import { livenessOf } from '../../lib/summarize/liveness.ts'
import type { Selected } from '../reconcile-summarize/scope.ts'
import { type Cells, cellsOf } from './cells.ts'
import { type EdgeItem, type EdgeWindow, edgeWindow } from './edge-window.ts'
import { rolloutsOf, type SpaceRollouts, withWaves } from './rollouts.ts'
import { filteredRowOf, rowOf } from './rows.ts'
import { needsAttention } from './states.ts'
import { placementsOf, type View } from './view.ts'

export const MAX_SCAN = 1000
/**
 * The most matching edges a label filter's rows are counted over. Each edge read costs the
 * request three or four subrequests (its mailbox's manifest and copy states, its SyncTarget,
 * Location and lease, batched where they can be), and one invocation may make 1,000.
 */
export const MAX_FILTERED_ROWS = 200

export type MatrixQuery = { offset: number; limit: number; labels?: string; attention: boolean }

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
type Read = { edges: EdgeWindow; cells: Cells }
/** Reads the edges of `dests` and their cells. */
type Reader = (dests: Destination[]) => Promise<Read>

const reader =
  (view: View, placements: readonly Selected[], rollouts: SpaceRollouts): Reader =>
  async (dests) => {
    const window = await edgeWindow(view, dests)
    const cells = await cellsOf(view, placements, { dests, edges: window }, rollouts)
    const items = await withWaves(rollouts, window.items, dests, window.inventory)
    return { edges: { ...window, items }, cells }
  }

/** A reader answering from `known` (every column read once), in the order asked. */
function slicer(known: Read): Reader {
  const byKey = new Map(known.edges.items.map((e) => [e.key, e]))
  return async (dests) => {
    const items = dests.flatMap((d) => byKey.get(mailboxOfDestination(d)) ?? [])
    const keys = new Set(items.map((e) => e.key))
    const cells: Cells = {}
    for (const [name, row] of Object.entries(known.cells))
      cells[name] = Object.fromEntries(Object.entries(row).filter(([k]) => keys.has(k)))
    return { edges: { items, inventory: known.edges.inventory }, cells }
  }
}

/**
 * Scans from the offset until `limit` columns need attention, MAX_SCAN were looked at, or the
 * next window of columns would not fit in the request's share of its budget (SHARES.attentionScan;
 * a window is taken to cost the most one has cost so far).
 */
function attentionPage(
  read: Reader,
  placements: readonly Selected[],
  cols: Destination[],
  q: MatrixQuery
): Promise<Page> {
  return withShare(SHARES.attentionScan, () => scan(read, placements, cols, q))
}

const usedSoFar = () => currentInvocation()?.subrequests ?? 0

async function scan(
  read: Reader,
  placements: readonly Selected[],
  cols: Destination[],
  q: MatrixQuery
): Promise<Page> {
  const out: Page = { edges: [], cells: {}, scanned: 0 }
  let at = q.offset
  let windowCost = 0
  while (out.edges.length < q.limit && at < cols.length && out.scanned < MAX_SCAN) {
    if (out.scanned > 0 && !hasRoom(windowCost)) break
    const chunk = cols.slice(at, at + Math.min(q.limit, MAX_SCAN - out.scanned))
    // The request's own count: the reads' batchers charge some of their requests apart from the
    // caller's measuring scope (frames.ts measuredApart), and nothing else runs in this request.
    const before = usedSoFar()
    const page = await read(chunk)
    windowCost = Math.max(windowCost, usedSoFar() - before)
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

export async function matrixOf(
  view: View,
  space: Space,
  q: MatrixQuery,
  limits = { filteredRows: MAX_FILTERED_ROWS }
) {
  const placements = await placementsOf(view, space)
  const rollouts = await rolloutsOf(view, space)
  let cols = columnsOf(placements)
  if (q.labels) cols = await filterByLabels(view, cols, q.labels)
  // With a label filter the rows count the matching edges: every matching column is read once
  // (at most MAX_FILTERED_ROWS of them) and the window is cut from that.
  const known =
    q.labels && cols.length <= limits.filteredRows
      ? await reader(view, placements, rollouts)(cols)
      : undefined
  const read = known ? slicer(known) : reader(view, placements, rollouts)
  let page: Page
  if (q.attention) page = await attentionPage(read, placements, cols, q)
  else {
    const dests = cols.slice(q.offset, q.offset + q.limit)
    const { edges, cells } = await read(dests)
    page = { edges: edges.items, cells, scanned: dests.length }
  }
  const end = q.offset + page.scanned
  return {
    space: space.path,
    now: view.nowMs,
    staleAfterMs: livenessOf(view.hub).staleAfterMs,
    rowScope: known ? 'filter' : 'all',
    filteredRowsMax: limits.filteredRows,
    rollouts: rollouts.views,
    placements: placements.map((p) => ({
      ...(known
        ? filteredRowOf(p, { edges: known.edges.items, cells: known.cells })
        : rowOf(p.placement)),
      rollouts: rollouts.governing(p.objects),
    })),
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
