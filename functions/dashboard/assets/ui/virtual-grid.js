/**
 * A virtualized two-dimensional grid with sticky headers: a scroll container holding a spacer of
 * the full size (fixed cell size), in which only the rows and columns in view (plus a margin) are
 * rendered as absolutely placed elements. The column headers stick to the top, the row headers to
 * the left. Cells may be sparse (a renderer returning null draws nothing: the layer's background
 * shows through). Keyboard: one roving tab stop; arrows, Home/End and PageUp/PageDown move it to
 * the next cell that exists (column -1 is the row header); Enter and Space activate it (buttons).
 */
import { clear, h, place } from './dom.js'

const OVERSCAN = 2
const MAX_STEPS = 1000

/**
 * opts: colWidth, rowHeight, headerHeight, rowHeaderWidth, and renderers returning elements:
 * cell(r, c) (or null), colHeader(c), colBody(c) (or null: drawn under the column's cells),
 * rowHeader(r), corner(); has(r, c): whether cell(r, c) draws something (for the keyboard);
 * onRange({ r0, r1, c0, c1 }) after each render with the range in view (no margin).
 */
export function createVirtualGrid(host, opts) {
  const { colWidth: CW, rowHeight: RH, headerHeight: HH, rowHeaderWidth: HW } = opts
  const corner = h('div', { class: 'vg-corner' })
  const colLayer = h('div', { class: 'vg-colhead' }, corner)
  const rowLayer = h('div', { class: 'vg-rowhead' })
  const bodyLayer = h('div', { class: 'vg-colbody' })
  const cellLayer = h('div', { class: 'vg-cells' })
  const body = h('div', { class: 'vg-body' }, bodyLayer, cellLayer, rowLayer)
  const canvas = h('div', { class: 'vg-canvas' }, colLayer, body)
  const scroller = h('div', { class: 'vg-scroller', tabindex: '-1' }, canvas)
  for (const [k, v] of [
    ['--cw', CW],
    ['--rh', RH],
    ['--hw', HW],
  ])
    scroller.style.setProperty(k, `${v}px`)
  host.appendChild(scroller)

  let rows = 0
  let cols = 0
  let frame = 0
  let active = { r: 0, c: 0 }
  const cells = new Map() // "r,c" → element or null
  const colHeads = new Map()
  const colBodies = new Map() // c → element or null
  const rowHeads = new Map()

  function resize() {
    const width = HW + cols * CW
    place(canvas, { width, height: HH + rows * RH })
    place(colLayer, { width, height: HH })
    place(corner, { width: HW, height: HH })
    place(body, { width, height: rows * RH })
    place(rowLayer, { width: HW, height: rows * RH })
  }

  function inView() {
    const w = Math.max(0, scroller.clientWidth - HW)
    const hgt = Math.max(0, scroller.clientHeight - HH)
    const c0 = Math.floor(scroller.scrollLeft / CW)
    const r0 = Math.floor(scroller.scrollTop / RH)
    return {
      c0: Math.min(c0, Math.max(0, cols - 1)),
      c1: Math.min(cols - 1, Math.floor((scroller.scrollLeft + w - 1) / CW)),
      r0: Math.min(r0, Math.max(0, rows - 1)),
      r1: Math.min(rows - 1, Math.floor((scroller.scrollTop + hgt - 1) / RH)),
    }
  }

  /** Drops the entries of `map` not kept (emptying `layer` at once when none is). */
  function prune(layer, map, keep) {
    const gone = [...map.keys()].filter((key) => !keep(key))
    if (layer && gone.length === map.size) {
      layer.replaceChildren()
      map.clear()
      return
    }
    for (const key of gone) {
      map.get(key)?.remove()
      map.delete(key)
    }
  }

  function mark(el, r, c) {
    el.dataset.r = String(r)
    el.dataset.c = String(c)
    el.tabIndex = -1
    return el
  }

  function renderCols(c0, c1, frag) {
    for (let c = c0; c <= c1; c++) {
      if (!colHeads.has(c)) {
        const el = place(opts.colHeader(c), { left: HW + c * CW, top: 0, width: CW, height: HH })
        colLayer.appendChild(el)
        colHeads.set(c, el)
      }
      if (!colBodies.has(c)) {
        const el = opts.colBody?.(c) ?? null
        if (el)
          frag.appendChild(place(el, { left: HW + c * CW, top: 0, width: CW, height: rows * RH }))
        colBodies.set(c, el)
      }
    }
  }

  function render() {
    frame = 0
    const v = inView()
    const r0 = Math.max(0, v.r0 - OVERSCAN)
    const r1 = Math.min(rows - 1, v.r1 + OVERSCAN)
    const c0 = Math.max(0, v.c0 - OVERSCAN)
    const c1 = Math.min(cols - 1, v.c1 + OVERSCAN)
    const inRows = (r) => r >= r0 && r <= r1
    const inCols = (c) => c >= c0 && c <= c1
    prune(null, colHeads, inCols)
    prune(bodyLayer, colBodies, inCols)
    prune(rowLayer, rowHeads, inRows)
    prune(cellLayer, cells, (key) => {
      const at = key.indexOf(',')
      return inRows(Number(key.slice(0, at))) && inCols(Number(key.slice(at + 1)))
    })
    const bodies = document.createDocumentFragment()
    renderCols(c0, c1, bodies)
    bodyLayer.appendChild(bodies)
    const frag = document.createDocumentFragment()
    for (let r = r0; r <= r1; r++) {
      if (!rowHeads.has(r)) {
        const el = place(mark(opts.rowHeader(r), r, -1), {
          left: 0,
          top: r * RH,
          width: HW,
          height: RH,
        })
        rowLayer.appendChild(el)
        rowHeads.set(r, el)
      }
      for (let c = c0; c <= c1; c++) {
        const key = `${r},${c}`
        if (cells.has(key)) continue
        const made = opts.cell(r, c)
        const el =
          made && place(mark(made, r, c), { left: HW + c * CW, top: r * RH, width: CW, height: RH })
        if (el) frag.appendChild(el)
        cells.set(key, el)
      }
    }
    cellLayer.appendChild(frag)
    corner.replaceChildren(opts.corner())
    rove(v)
    opts.onRange?.(v)
  }

  const elementAt = (r, c) => (c < 0 ? rowHeads.get(r) : cells.get(`${r},${c}`))

  /** Exactly one rendered element is the tab stop: the active one, else the first row header. */
  function rove(v) {
    for (const el of cells.values()) if (el) el.tabIndex = -1
    for (const el of rowHeads.values()) el.tabIndex = -1
    const stop = elementAt(active.r, active.c) ?? rowHeads.get(v.r0)
    if (stop) stop.tabIndex = 0
  }

  const requestRender = () => {
    if (!frame) frame = requestAnimationFrame(render)
  }

  /** Scrolls so that (r, c) is in view and focuses it. */
  function focusAt(r, c) {
    active = { r, c }
    const v = inView()
    if (r < v.r0) scroller.scrollTop = r * RH
    else if (r > v.r1) scroller.scrollTop = (r + 1) * RH - (scroller.clientHeight - HH)
    if (c >= 0 && c < v.c0) scroller.scrollLeft = c * CW
    else if (c > v.c1) scroller.scrollLeft = (c + 1) * CW - (scroller.clientWidth - HW)
    if (frame) cancelAnimationFrame(frame)
    render()
    elementAt(r, c)?.focus({ preventScroll: true })
  }

  const exists = (r, c) => c < 0 || opts.has(r, c)
  const inside = (r, c) => r >= 0 && r < rows && c >= -1 && c < cols

  /** The first cell that exists from (r, c) on, stepping by (dr, dc); null if none near. */
  function seek(r, c, dr, dc) {
    for (let i = 0; i < MAX_STEPS && inside(r, c); i++, r += dr, c += dc)
      if (exists(r, c)) return [r, c]
    return null
  }

  const KEYS = {
    ArrowUp: (a) => seek(a.r - 1, a.c, -1, 0),
    ArrowDown: (a) => seek(a.r + 1, a.c, 1, 0),
    ArrowLeft: (a) => seek(a.r, a.c - 1, 0, -1),
    ArrowRight: (a) => seek(a.r, a.c + 1, 0, 1),
    Home: (a) => [a.r, -1],
    End: (a) => seek(a.r, cols - 1, 0, -1),
    PageUp: (a, v) => seek(Math.max(0, a.r - Math.max(1, v.r1 - v.r0)), a.c, -1, 0),
    PageDown: (a, v) => seek(Math.min(rows - 1, a.r + Math.max(1, v.r1 - v.r0)), a.c, 1, 0),
  }

  function onKey(e) {
    const move = KEYS[e.key]
    const target = e.target.closest?.('[data-r]')
    if (!move || !target || e.altKey || e.metaKey || e.ctrlKey) return
    e.preventDefault()
    active = { r: Number(target.dataset.r), c: Number(target.dataset.c) }
    const to = move(active, inView())
    if (to) focusAt(to[0], to[1])
  }

  function onFocus(e) {
    const target = e.target.closest?.('[data-r]')
    if (target) active = { r: Number(target.dataset.r), c: Number(target.dataset.c) }
  }

  scroller.addEventListener('scroll', requestRender, { passive: true })
  scroller.addEventListener('keydown', onKey)
  scroller.addEventListener('focusin', onFocus)
  const observer = new ResizeObserver(requestRender)
  observer.observe(scroller)

  return {
    scroller,
    /** Sets the grid's size in rows and columns. */
    setSize(r, c) {
      if (r === rows && c === cols) return
      rows = r
      cols = c
      resize()
      for (const el of colBodies.values()) el?.remove()
      colBodies.clear()
      requestRender()
    },
    /** Re-renders every element in view (data changed), keeping the keyboard focus. */
    invalidate() {
      const focused = scroller.contains(document.activeElement) && document.activeElement.dataset.r
      colLayer.replaceChildren(corner)
      for (const layer of [bodyLayer, cellLayer, rowLayer]) layer.replaceChildren()
      for (const map of [cells, colHeads, colBodies, rowHeads]) map.clear()
      if (frame) cancelAnimationFrame(frame)
      render()
      if (focused) elementAt(active.r, active.c)?.focus({ preventScroll: true })
    },
    inView,
    scrollTo(left, top) {
      scroller.scrollLeft = left
      scroller.scrollTop = top
    },
    focusAt,
    destroy() {
      observer.disconnect()
      if (frame) cancelAnimationFrame(frame)
      clear(host)
    },
  }
}
