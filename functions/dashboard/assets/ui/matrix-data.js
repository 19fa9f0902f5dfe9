/**
 * The matrix's data, fetched from `GET /ui/api/matrix` a window of columns at a time. Without
 * the attention filter columns are positional: windows of 100 by `offset` (window-cache.js).
 * With it the server scans forward from an offset and answers the columns needing attention
 * plus `next`, so positions are unknown ahead: pages are fetched in order from 0, one at a time,
 * as the view scrolls towards the end of what is loaded. Rows (every placement of the space)
 * come with each answer; the latest answer's rows are shown, with `rowScope` (whether they count
 * the edges a label filter matches or every edge), and so do the space's Rollouts (`rollouts()`,
 * by name). A request that failed is kept (`failure()`)
 * until one succeeds, so the view can say why nothing shows instead of "Loading…".
 */
import { api, isAbort, query } from './api.js'
import { setServerNow } from './format.js'
import { byName } from './rollout-marks.js'
import { createWindowCache, refused } from './window-cache.js'

export const WINDOW = 100

/** opts: space, labels, attention, onChange(), onError(e). */
export function createMatrixData(opts) {
  const base = { space: opts.space, labels: opts.labels || undefined }
  let rows = []
  let rollouts = byName([])
  let rowScope = 'all'
  let filteredRowsMax = 0
  let total = null
  let loadedOnce = false
  let failure = null

  function failed(e) {
    failure = e
    opts.onError(e)
    opts.onChange()
  }

  const fetchPage = (offset, limit, signal) =>
    api(`matrix${query({ ...base, offset, limit, attention: opts.attention })}`, { signal })

  function accept(d) {
    setServerNow(d.now, d.staleAfterMs)
    rows = d.placements ?? []
    rollouts = byName(d.rollouts)
    rowScope = d.rowScope ?? 'all'
    filteredRowsMax = d.filteredRowsMax ?? 0
    total = d.edges?.total ?? 0
    loadedOnce = true
    failure = null
  }

  return opts.attention ? attentionSource() : positionalSource()

  function positionalSource() {
    const cache = createWindowCache({
      size: WINDOW,
      keep: 2,
      load: fetchPage,
      totalOf: (d) => d.edges.total,
      onLoad: (_offset, d) => {
        accept(d)
        opts.onChange()
      },
      onError: failed,
    })
    const columnAt = (i) => {
      const w = cache.windowAt(i)
      return w ? (w.edges.items[i - w.edges.offset] ?? null) : undefined
    }
    cache.ensure(0, 0)
    return {
      rows: () => rows,
      rollouts: () => rollouts,
      rowScope: () => rowScope,
      filteredRowsMax: () => filteredRowsMax,
      loaded: () => loadedOnce,
      failure: () => failure,
      columnCount: () => total ?? 0,
      total: () => total,
      /** The edge of column i; undefined while its window loads. */
      column: columnAt,
      /** The cell of (placement, column i): undefined while loading, null when not selected. */
      cell(name, i) {
        const w = cache.windowAt(i)
        const edge = w?.edges.items[i - w.edges.offset]
        if (!edge) return undefined
        return w.cells?.[name]?.[edge.key] ?? null
      },
      ensure: (first, last) => cache.ensure(first, last),
      refresh: () => cache.refresh(),
      busy: () => cache.inFlight() > 0,
      status: () => null,
      dispose: () => cache.dispose(),
    }
  }

  function attentionSource() {
    const empty = () => ({ cols: [], next: 0, scanned: 0 })
    let state = empty() // shown: cols { edge, cells }, next (undefined at the end), scanned
    let building = null // a refresh under way, from offset 0; swapped in once it covers the view
    let want = WINDOW
    let ctrl = null
    let disposed = false

    function step() {
      if (ctrl || disposed) return
      const target = building ?? state
      if (target.next === undefined || target.cols.length >= want) {
        if (building) {
          state = building
          building = null
          opts.onChange()
        }
        return
      }
      ctrl = new AbortController()
      fetchPage(target.next, WINDOW, ctrl.signal)
        .then((d) => {
          ctrl = null
          accept(d)
          for (const edge of d.edges.items) target.cols.push({ edge, cells: d.cells })
          target.next = d.edges.next
          target.scanned = d.edges.offset + d.edges.scanned
          if (target === state) opts.onChange()
          step()
        })
        .catch((e) => {
          ctrl = null
          if (!isAbort(e)) failed(e)
        })
    }

    step()
    return {
      rows: () => rows,
      rollouts: () => rollouts,
      rowScope: () => rowScope,
      filteredRowsMax: () => filteredRowsMax,
      loaded: () => loadedOnce,
      failure: () => failure,
      columnCount: () => state.cols.length,
      total: () => total,
      column: (i) => state.cols[i]?.edge,
      cell(name, i) {
        const col = state.cols[i]
        if (!col) return undefined
        return col.cells?.[name]?.[col.edge.key] ?? null
      },
      ensure(_first, last) {
        want = Math.max(WINDOW, last + 1 + WINDOW)
        step()
      },
      refresh() {
        if (refused(failure)) return
        ctrl?.abort()
        ctrl = null
        building = empty()
        step()
      },
      busy: () => ctrl !== null,
      /** How far the scan went: { found, scanned, total, done }. */
      status: () => ({
        found: state.cols.length,
        scanned: state.scanned,
        total: total ?? 0,
        done: state.next === undefined,
      }),
      dispose() {
        disposed = true
        ctrl?.abort()
      },
    }
  }
}
