/**
 * The matrix view: the space's placements (rows) against the edges they select (columns), each
 * cell the worst state of that placement's copies at that edge. Virtualized both ways
 * (virtual-grid.js) with columns fetched a window at a time (matrix-data.js). Filters: a label
 * selector on Location labels (`#label-filter`) and "needs attention" (`#attention-filter`).
 * A row header (row-head.js) says how many edges the placement is at and, apart, its copies (an
 * object at an edge) by state; under a label filter both count the matching edges ("1 of 2
 * edges"). A request
 * the server refused (a malformed selector) is said in the totals, never left as "Loading…".
 * A cell opens the drill-down, a row header the placement panel. Where a Rollout governs a row's
 * objects (rollout-marks.js, rollout-view.js): a bar names it with its waves, each column is
 * marked with its wave, each cell shows the revision its copies hold (dashed when older than its
 * wave's), and the row header its revision in flight and current wave.
 */
import { clear, h } from './dom.js'
import { filterBar } from './filter-bar.js'
import { count, labelsText, lastSeenText, plural } from './format.js'
import { createMatrixData } from './matrix-data.js'
import { dismiss } from './notice.js'
import { cellMarks, edgeWaves } from './rollout-marks.js'
import { cellRevision, rolloutBar, waveMarks } from './rollout-view.js'
import { rowHead } from './row-head.js'
import { chip, countsText, STATES, stateOf, stateSymbol, stateWord } from './states.js'
import { createVirtualGrid } from './virtual-grid.js'

const FILTERS = {
  input: {
    id: 'label-filter',
    key: 'labels',
    label: 'Location labels',
    placeholder: 'env=prod,region in (eu,us)',
  },
  check: { id: 'attention-filter', key: 'attention', label: 'Needs attention' },
}

const SIZE = { colWidth: 36, rowHeight: 44, headerHeight: 132, rowHeaderWidth: 340 }

function legend() {
  return h(
    'div',
    { class: 'legend', 'aria-label': 'Legend' },
    STATES.map((s) => chip(s)),
    h('span', { class: 'legend-none' }, h('span', { class: 'cell-none-mark' }), 'not selected')
  )
}

/** ctx: space, filters { labels, attention }, openCell(placement, edge, opener),
 * openPlacement(name, opener), onError(e). Returns the view: refresh(), tick(), destroy(). */
export function mountMatrix(host, ctx) {
  const totals = h('div', {
    class: 'totals',
    'data-testid': 'matrix-totals',
    'aria-live': 'polite',
  })
  const empty = h('div', { class: 'empty', hidden: true })
  const gridHost = h('div', { class: 'grid-host' })
  const rolloutHost = h('div', { class: 'rollout-host' })
  const root = h(
    'section',
    { class: 'view matrix-view', 'data-testid': 'matrix', 'aria-label': 'Placements by edge' },
    h('div', { class: 'toolbar' }, filterBar(ctx.filters, FILTERS, reload), totals, legend()),
    rolloutHost,
    h('div', { class: 'grid-wrap' }, gridHost, empty)
  )
  host.appendChild(root)

  let data = null
  let view = { r0: 0, r1: -1, c0: 0, c1: -1 }

  /** The Rollouts governing some row, oldest first as the answer lists them. */
  const governing = () => {
    const named = new Set(data.rows().flatMap((p) => p.rollouts ?? []))
    return [...data.rollouts().keys()].filter((n) => named.has(n))
  }

  /** The cell of row r, column c: an object, null (not selected) or undefined (loading). */
  const cellAt = (r, c) => {
    const p = data.rows()[r]
    return p && data.column(c) ? data.cell(p.name, c) : undefined
  }

  /** A cell is drawn only where the placement selects the edge; elsewhere the grid's dot shows. */
  function cell(r, c) {
    const p = data.rows()[r]
    const edge = data.column(c)
    const value = cellAt(r, c)
    if (!value) return null
    const state = stateOf(value.worst)
    const marks = cellMarks(data.rollouts(), p, edge, value)
    const revs = marks.map((m) => `\n${m.title}`).join('')
    const tip = `${p.name} at ${edge.syncTarget} (${edge.inventory})\n${stateWord(state)}: ${countsText(value.counts)}${revs}`
    const behind = marks.some((m) => m.behind)
    const held = behind && marks.every((m) => !m.behind || m.held)
    const revClass = behind ? (held ? ' rev-held' : ' rev-behind') : ''
    return h(
      'button',
      {
        type: 'button',
        class: `cell-slot cell s-${state}${revClass}`,
        'data-testid': 'cell',
        'data-placement': p.name,
        'data-edge': edge.syncTarget,
        'data-key': edge.key,
        'data-state': state,
        'data-revision': marks[0]?.text,
        'data-behind': marks.length ? String(behind) : undefined,
        'data-tip': tip,
        'data-seen': edge.lastSeen ?? '',
        title: `${tip}\n${lastSeenText(edge.lastSeen)}`,
        'aria-label': `${p.name} at ${edge.syncTarget}: ${stateWord(state)}${marks[0] ? `, ${marks[0].text}${behind ? ', behind its wave' : ''}` : ''}`,
      },
      h('span', { class: 'cell-sym', 'aria-hidden': 'true' }, stateSymbol(state)),
      cellRevision(marks)
    )
  }

  /** A column still loading is covered, so that its cells do not read as "not selected". */
  const colBody = (c) =>
    data.column(c) ? null : h('div', { class: 'col-loading', 'aria-hidden': 'true' })

  function colHeader(c) {
    const edge = data.column(c)
    if (!edge) return h('div', { class: 'col-head loading' }, h('span', { class: 'col-name' }, '…'))
    const waves = edgeWaves(data.rollouts(), governing(), edge)
    const tip = `${edge.syncTarget}\ninventory ${edge.inventory}\nLocation ${edge.location}\n${labelsText(edge.labels)}${waves.map((w) => `\n${w.title}`).join('')}`
    return h(
      'div',
      {
        class: `col-head${edge.stale ? ' stale' : ''}`,
        'data-testid': 'col-head',
        'data-edge': edge.syncTarget,
        'data-stale': String(edge.stale),
        'data-tip': `${tip}${edge.stale ? '\nstale' : ''}`,
        'data-seen': edge.lastSeen ?? '',
        title: `${tip}${edge.stale ? '\nstale' : ''}\n${lastSeenText(edge.lastSeen)}`,
      },
      edge.stale ? h('span', { class: 'stale-badge' }, 'stale') : null,
      h('span', { class: 'col-name' }, edge.syncTarget),
      waveMarks(waves)
    )
  }

  const rowHeader = (r) => rowHead(data.rows()[r], data.rowScope(), data.rollouts())

  const corner = () =>
    h(
      'div',
      { class: 'corner' },
      h('span', { class: 'corner-title' }, 'Placement'),
      h('span', { class: 'corner-sub' }, plural(data?.rows().length ?? 0, 'placement'))
    )

  const grid = createVirtualGrid(gridHost, {
    ...SIZE,
    cell,
    colHeader,
    colBody,
    rowHeader,
    has: (r, c) => Boolean(cellAt(r, c)),
    corner,
    onRange(v) {
      view = v
      data.ensure(v.c0, Math.max(v.c0, v.c1))
      showTotals()
    },
  })

  /** Marks the label filter invalid while the server refuses it (a 400 names the selector). */
  function markFilter(failure) {
    const input = root.querySelector(`#${FILTERS.input.id}`)
    if (failure?.code === 400) input?.setAttribute('aria-invalid', 'true')
    else input?.removeAttribute('aria-invalid')
  }

  function showTotals() {
    const failure = data.failure()
    markFilter(failure)
    if (!data.loaded()) {
      totals.textContent = failure ? `Not loaded: ${failure.message}` : 'Loading…'
      totals.classList.toggle('totals-error', Boolean(failure))
      return
    }
    totals.classList.toggle('totals-error', Boolean(failure))
    const n = data.columnCount()
    const span = n ? `${count(view.c0 + 1)}–${count(Math.min(n, view.c1 + 1))}` : '0'
    const st = data.status()
    let text
    if (st) {
      const more = st.done ? '' : ' so far'
      text = `edges needing attention ${span} of ${count(st.found)} found · scanned ${count(st.scanned)} of ${count(st.total)}${more}`
    } else text = `edges ${span} of ${count(n)}`
    if (ctx.filters.labels)
      text +=
        data.rowScope() === 'filter'
          ? ' · rows count these edges'
          : ` · rows count every edge (more than ${count(data.filteredRowsMax())} match)`
    if (failure) text += ` · ${failure.message}`
    totals.textContent = text
  }

  function showEmpty() {
    const rows = data.rows().length
    const cols = data.columnCount()
    const st = data.status()
    let text = ''
    if (data.loaded() && !rows) text = 'This space holds no EdgePlacements.'
    else if (data.loaded() && !cols && (!st || st.done))
      text = st
        ? 'No edge needs attention: every copy is ready.'
        : ctx.filters.labels
          ? 'No selected edge has a Location matching the label filter.'
          : 'The placements of this space select no edge yet.'
    empty.textContent = text
    empty.hidden = !text
  }

  function changed() {
    clear(rolloutHost).append(rolloutBar(data.rollouts(), governing()) ?? '')
    grid.setSize(data.rows().length, data.columnCount())
    grid.invalidate()
    showTotals()
    showEmpty()
  }

  function reload() {
    dismiss()
    data?.dispose()
    data = createMatrixData({
      space: ctx.space,
      labels: ctx.filters.labels,
      attention: ctx.filters.attention,
      onChange: changed,
      onError: ctx.onError,
    })
    grid.setSize(0, 0)
    grid.scrollTo(0, 0)
    changed()
  }

  gridHost.addEventListener('click', (e) => {
    const target = e.target.closest('[data-testid=cell],[data-testid=row-head]')
    if (!target) return
    if (target.dataset.testid === 'row-head')
      return ctx.openPlacement(target.dataset.placement, target)
    const edge = data.column(Number(target.dataset.c))
    if (edge) ctx.openCell(target.dataset.placement, edge, target)
  })

  reload()
  return {
    refresh: () => data.refresh(),
    tick() {
      for (const el of gridHost.querySelectorAll('[data-tip]'))
        el.title = `${el.dataset.tip}\n${lastSeenText(el.dataset.seen ? Number(el.dataset.seen) : null)}`
    },
    grid,
    destroy() {
      data.dispose()
      grid.destroy()
      clear(host)
    },
  }
}
