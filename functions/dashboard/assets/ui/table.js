/**
 * The panels' tables (the cell, edge and placement panels): a `<table class="table">` with one
 * header row and a body row per item, named for tests by `data-testid`, or the muted note a panel
 * shows instead when there is no item.
 */
import { h } from './dom.js'

/**
 * `items` as a table, or the note `none` when there are none. opts: testid, head (the header
 * cells' text), row(item) (its `<tr>`), none, and `className` added to "table".
 */
export function tableOf(items, { testid, head, row, none, className }) {
  if (!items?.length) return h('p', { class: 'muted' }, none)
  return h(
    'table',
    { class: className ? `table ${className}` : 'table', 'data-testid': testid },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        head.map((t) => h('th', null, t))
      )
    ),
    h('tbody', null, items.map(row))
  )
}
