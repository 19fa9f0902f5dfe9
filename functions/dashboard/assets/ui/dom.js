/**
 * A tiny DOM builder for the dashboard: `h(tag, props, ...children)`. Text always goes in as text
 * nodes and attributes through setAttribute, never as HTML, so object names, labels and messages
 * (user data) can never inject markup.
 */

/** Appends children: strings and numbers become text nodes, arrays are flattened, null skipped. */
export function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue
    if (Array.isArray(child)) append(el, child)
    else if (child instanceof Node) el.appendChild(child)
    else el.appendChild(document.createTextNode(String(child)))
  }
  return el
}

function setProp(el, key, value) {
  if (value === undefined || value === null || value === false) return
  if (key === 'class') el.className = value
  else if (key === 'text') el.textContent = String(value)
  else if (key === 'dataset') Object.assign(el.dataset, value)
  else if (key.startsWith('on') && typeof value === 'function')
    el.addEventListener(key.slice(2), value)
  else el.setAttribute(key, value === true ? '' : String(value))
}

/** Creates an element with properties (attributes, `class`, `text`, `dataset`, `on<event>`). */
export function h(tag, props, ...children) {
  const el = document.createElement(tag)
  if (props) for (const [key, value] of Object.entries(props)) setProp(el, key, value)
  return append(el, children)
}

/** Removes every child of `el`. */
export function clear(el) {
  el.replaceChildren()
  return el
}

/** Positions an absolutely placed element (CSSOM, allowed by the page's CSP). */
export function place(el, box) {
  const s = el.style
  if (box.left !== undefined) s.left = `${box.left}px`
  if (box.top !== undefined) s.top = `${box.top}px`
  if (box.width !== undefined) s.width = `${box.width}px`
  if (box.height !== undefined) s.height = `${box.height}px`
  return el
}
