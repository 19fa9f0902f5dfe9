/**
 * The page's message line: errors from the API (the kube Status message, e.g. a malformed label
 * selector) and other notices, shown in an alert region until dismissed or replaced.
 */
import { clear, h } from './dom.js'

let timer = 0

/** Shows `message` (an Error or text); `kind` is "error" or "info". */
export function notify(message, kind = 'error') {
  const el = document.getElementById('notice')
  const text = message instanceof Error ? message.message : String(message)
  clearTimeout(timer)
  clear(el)
  el.className = `notice notice-${kind}`
  el.hidden = false
  el.append(
    h('span', { 'data-testid': 'error' }, text),
    h(
      'button',
      { type: 'button', class: 'icon-button', 'aria-label': 'Dismiss', onclick: dismiss },
      '✕'
    )
  )
  if (kind !== 'error') timer = setTimeout(dismiss, 6000)
}

/** Hides the message line. */
export function dismiss() {
  const el = document.getElementById('notice')
  clearTimeout(timer)
  clear(el)
  el.hidden = true
}
