/**
 * A virtualized list of fixed-height rows under a sticky header: a scroll container with a spacer
 * of the full height in which only the rows in view (plus a margin) exist, absolutely placed.
 */
import { clear, h, place } from './dom.js'

const OVERSCAN = 6

/** opts: rowHeight, headerHeight, header (element), row(i) → element, onRange({ first, last }). */
export function createVirtualList(host, opts) {
  const RH = opts.rowHeight
  const HH = opts.headerHeight
  const head = h('div', { class: 'vl-head', role: 'rowgroup' }, opts.header)
  const rowsLayer = h('div', { class: 'vl-rows', role: 'rowgroup' })
  const canvas = h('div', { class: 'vl-canvas' }, head, rowsLayer)
  const scroller = h('div', { class: 'vl-scroller', role: 'table', tabindex: '0' }, canvas)
  host.appendChild(scroller)
  place(head, { height: HH })

  let n = 0
  let frame = 0
  const rows = new Map()

  function inView() {
    const first = Math.floor(scroller.scrollTop / RH)
    const last = Math.floor((scroller.scrollTop + Math.max(0, scroller.clientHeight - HH) - 1) / RH)
    return { first: Math.min(first, Math.max(0, n - 1)), last: Math.min(n - 1, last) }
  }

  function render() {
    frame = 0
    const v = inView()
    const lo = Math.max(0, v.first - OVERSCAN)
    const hi = Math.min(n - 1, v.last + OVERSCAN)
    for (const [i, el] of rows) {
      if (i < lo || i > hi) {
        el.remove()
        rows.delete(i)
      }
    }
    const frag = document.createDocumentFragment()
    for (let i = lo; i <= hi; i++) {
      if (rows.has(i)) continue
      const el = place(opts.row(i), { top: i * RH, height: RH })
      el.setAttribute('aria-rowindex', String(i + 2))
      frag.appendChild(el)
      rows.set(i, el)
    }
    rowsLayer.appendChild(frag)
    opts.onRange?.(v)
  }

  const requestRender = () => {
    if (!frame) frame = requestAnimationFrame(render)
  }
  scroller.addEventListener('scroll', requestRender, { passive: true })
  const observer = new ResizeObserver(requestRender)
  observer.observe(scroller)

  return {
    scroller,
    setCount(count) {
      if (count === n) return
      n = count
      scroller.setAttribute('aria-rowcount', String(n + 1))
      place(rowsLayer, { height: n * RH })
      requestRender()
    },
    /** Re-renders the rows in view (their data changed). */
    invalidate() {
      for (const el of rows.values()) el.remove()
      rows.clear()
      if (frame) cancelAnimationFrame(frame)
      render()
    },
    inView,
    destroy() {
      observer.disconnect()
      if (frame) cancelAnimationFrame(frame)
      clear(host)
    },
  }
}
