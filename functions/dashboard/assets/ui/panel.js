/**
 * The side panel the drill-downs open in (one at a time): a labelled dialog region with a heading
 * and a close button, closed by Escape too; focus moves into it on open and back to what opened
 * it on close. Each panel has an AbortSignal so its requests stop when it closes, and may give a
 * `refresh` that the live updates call while it is open; `openLivePanel` is such a panel over one
 * read (the cell and edge panels).
 */

import { isAbort } from './api.js'
import { clear, h } from './dom.js'
import { loading } from './widgets.js'

let current = null

/** Closes the open panel, if any. */
export function closePanel() {
  if (!current) return
  const { el, ctrl, opener } = current
  current = null
  ctrl.abort()
  el.remove()
  // A grid cell may have been re-rendered while the panel was open: focus its replacement.
  const again =
    opener && !opener.isConnected && opener.dataset.r !== undefined
      ? document.querySelector(`#view [data-r="${opener.dataset.r}"][data-c="${opener.dataset.c}"]`)
      : opener
  if (again?.isConnected) again.focus({ preventScroll: true })
}

document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && current) {
    e.preventDefault()
    closePanel()
  }
})

/** Re-reads the open panel, when it has a refresh (live.js calls this with the view's). */
export function refreshPanel() {
  current?.refresh?.()
}

/**
 * Opens a panel. opts: testid, title, subtitle, opener (element to refocus on close), refresh
 * (called by refreshPanel while the panel is open).
 * Returns { body, signal }: fill `body`; `signal` aborts when the panel closes.
 */
export function openPanel(opts) {
  closePanel()
  const ctrl = new AbortController()
  const titleId = `panel-title-${Date.now()}`
  const heading = h('h2', { id: titleId, class: 'panel-title', tabindex: '-1' }, opts.title)
  const close = h(
    'button',
    {
      type: 'button',
      class: 'icon-button',
      'data-testid': 'panel-close',
      'aria-label': 'Close panel',
      title: 'Close (Esc)',
      onclick: closePanel,
    },
    '✕'
  )
  const body = h('div', { class: 'panel-body' })
  const el = h(
    'aside',
    { class: 'panel', role: 'dialog', 'aria-labelledby': titleId, 'data-testid': opts.testid },
    h(
      'header',
      { class: 'panel-head' },
      h('div', null, heading, opts.subtitle ? h('p', { class: 'panel-sub' }, opts.subtitle) : null),
      close
    ),
    body
  )
  document.getElementById('panels').appendChild(el)
  current = { el, ctrl, opener: opts.opener, refresh: opts.refresh }
  heading.focus({ preventScroll: true })
  return { body, signal: ctrl.signal }
}

/** A titled section of a panel. */
export const section = (title, ...children) =>
  h('section', { class: 'panel-section' }, h('h3', null, title), ...children)

/**
 * Opens a panel (opts as openPanel's, but refresh) that shows `read(signal)`'s answer drawn by
 * `draw(body, answer)`, and reads again on each live refresh while it is open, one read at a time,
 * redrawing where the body was scrolled; a failure of the first read is shown in it, a later one
 * leaves the last answer shown.
 */
export async function openLivePanel({ read, draw, ...opts }) {
  let busy = false
  const load = async (first) => {
    if (busy) return
    busy = true
    try {
      const d = await read(signal)
      if (signal.aborted) return
      const top = body.scrollTop
      draw(body, d)
      body.scrollTop = top
    } catch (e) {
      if (isAbort(e)) return
      if (first) clear(body).append(h('p', { class: 'error-text', role: 'alert' }, e.message))
    } finally {
      busy = false
    }
  }
  const { body, signal } = openPanel({ ...opts, refresh: () => load(false) })
  body.append(loading())
  await load(true)
}
