/**
 * The filter bar of a view: a label selector input (applied on Enter or 600 ms after typing
 * stops) and one checkbox, both writing into the view's `filters` object and calling `onFilter`
 * when a value changed. The matrix filters on Location labels and "needs attention", the edges
 * view on SyncTarget labels and "stale only".
 */
import { h } from './dom.js'

/**
 * `spec`: { input: {id, key, label, placeholder}, check: {id, key, label} }, where each `key`
 * names the field of `filters` it edits.
 */
export function filterBar(filters, spec, onFilter) {
  const { input: i, check: c } = spec
  let timer = 0
  const input = h('input', {
    id: i.id,
    type: 'search',
    class: 'text-input',
    placeholder: i.placeholder,
    spellcheck: 'false',
    autocomplete: 'off',
    value: filters[i.key],
  })
  const apply = () => {
    clearTimeout(timer)
    if (input.value.trim() === filters[i.key]) return
    filters[i.key] = input.value.trim()
    onFilter()
  }
  input.addEventListener('input', () => {
    clearTimeout(timer)
    timer = setTimeout(apply, 600)
  })
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') apply()
  })
  const box = h('input', { id: c.id, type: 'checkbox', checked: filters[c.key] })
  box.addEventListener('change', () => {
    filters[c.key] = box.checked
    onFilter()
  })
  return h(
    'div',
    { class: 'filters' },
    h('label', { for: i.id, class: 'field-label' }, i.label),
    input,
    h('label', { class: 'check' }, box, c.label)
  )
}
