/**
 * The edges view (`GET /ui/api/edges`): every SyncTarget, a virtualized list fetched 200 rows at a
 * time, with its inventory, labels, the Locations selecting it, when its agent was last heard, the
 * agent's version, how it polls ("held 300 s", "plain 15 s"; format.js pollText) and when its last
 * poll was answered (a dash from agents that do not say) and how many objects its mailbox holds. A
 * stale edge is marked stale, in grey (unknown, not failed). Each row says the state of the copies
 * the edge holds (the worst, and the count of each), so an edge with a failed copy reads failed; a
 * row opens the edge panel (edge-view.js). Filters: a label selector on SyncTarget labels
 * (`#edge-label-filter`) and "stale only" (`#stale-filter`); one the server refuses is said in the
 * totals, never left as "Loading…".
 */
import { api, query } from './api.js'
import { clear, h } from './dom.js'
import { showEdge } from './edge-view.js'
import { filterBar } from './filter-bar.js'
import { count, labelsText, plural, pollText, pollTitle, setServerNow } from './format.js'
import { dismiss } from './notice.js'
import { chip, countsText, stateOf, tallies } from './states.js'
import { createVirtualList } from './virtual-list.js'
import { ageSpan, labelChips, staleBadge } from './widgets.js'
import { createWindowCache } from './window-cache.js'

const FILTERS = {
  input: {
    id: 'edge-label-filter',
    key: 'edgeLabels',
    label: 'SyncTarget labels',
    placeholder: 'region=eu,tier!=canary',
  },
  check: { id: 'stale-filter', key: 'staleOnly', label: 'Stale only' },
}

const COLUMNS = [
  'Name',
  'State',
  'Inventory',
  'Labels',
  'Locations',
  'Last seen',
  'Agent',
  'Poll',
  'Last poll',
  'Holds',
]
const dash = () => h('span', { class: 'muted' }, '—')

function rowOf(e) {
  const cell = (cls, ...children) => h('div', { class: `td ${cls}`, role: 'cell' }, ...children)
  return h(
    'div',
    {
      class: `edge-row${e.stale ? ' stale' : ''}`,
      role: 'row',
      'data-testid': 'edge-row',
      'data-edge': e.syncTarget,
      'data-key': e.key,
      'data-inventory': e.inventory,
      'data-stale': String(e.stale),
      'data-state': stateOf(e.worst),
      'data-poll-mode': e.pollMode ?? '',
    },
    cell(
      'name',
      h(
        'button',
        {
          type: 'button',
          class: 'edge-name link-button',
          'data-testid': 'open-edge',
          title: `Open ${e.syncTarget}\nmailbox ${e.key}`,
        },
        e.syncTarget
      ),
      e.stale ? staleBadge() : null
    ),
    cell(
      'state',
      h(
        'span',
        { class: 'edge-state', title: `The copies it holds: ${countsText(e.counts)}` },
        chip(e.worst, true),
        tallies(e.counts)
      )
    ),
    cell('inventory', e.inventory),
    cell('labels', labelChips(e.labels)),
    cell(
      'locations',
      e.locations?.length
        ? e.locations.map((l) => h('span', { class: 'loc', title: labelsText(l.labels) }, l.name))
        : dash()
    ),
    cell('seen', ageSpan(e.lastSeen)),
    cell('agent', e.agentVersion ?? dash()),
    cell('poll', h('span', { title: pollTitle(e) }, pollText(e) ?? dash())),
    cell('last-poll', e.lastPoll === null ? dash() : ageSpan(e.lastPoll)),
    cell('holds', e.holds === null ? dash() : plural(e.holds, 'object'))
  )
}

const placeholder = () =>
  h(
    'div',
    { class: 'edge-row loading', role: 'row', 'aria-hidden': 'true' },
    h('div', { class: 'td' }, '…')
  )

/**
 * ctx: filters { edgeLabels, staleOnly }, onError(e). Returns refresh(), tick(), destroy().
 */
export function mountEdges(host, ctx) {
  const totals = h('div', { class: 'totals', 'data-testid': 'edges-totals', 'aria-live': 'polite' })
  const empty = h('div', { class: 'empty', hidden: true })
  const listHost = h('div', { class: 'list-host' })
  const root = h(
    'section',
    { class: 'view edges-view', 'data-testid': 'edges-view', 'aria-label': 'Edges' },
    h('div', { class: 'toolbar' }, filterBar(ctx.filters, FILTERS, reload), totals),
    h('div', { class: 'grid-wrap' }, listHost, empty)
  )
  host.appendChild(root)

  let cache = null
  let total = null
  let failure = null
  let range = { first: 0, last: -1 }
  const header = h(
    'div',
    { class: 'edge-row head', role: 'row' },
    COLUMNS.map((c) => h('div', { class: 'th', role: 'columnheader' }, c))
  )
  const list = createVirtualList(listHost, {
    rowHeight: 40,
    headerHeight: 36,
    header,
    row(i) {
      const w = cache.windowAt(i)
      const e = w?.items[i - w.offset]
      return e ? rowOf(e) : placeholder()
    },
    onRange(v) {
      range = v
      cache.ensure(v.first, Math.max(v.first, v.last))
      showTotals()
    },
  })

  function showTotals() {
    const input = root.querySelector(`#${FILTERS.input.id}`)
    if (failure?.code === 400) input?.setAttribute('aria-invalid', 'true')
    else input?.removeAttribute('aria-invalid')
    totals.classList.toggle('totals-error', Boolean(failure))
    if (total === null) {
      totals.textContent = failure ? `Not loaded: ${failure.message}` : 'Loading…'
      return
    }
    const span = total ? `${count(range.first + 1)}–${count(Math.min(total, range.last + 1))}` : '0'
    totals.textContent = `edges ${span} of ${count(total)}${ctx.filters.staleOnly ? ' stale' : ''}${failure ? ` · ${failure.message}` : ''}`
    empty.hidden = total !== 0
    empty.textContent = ctx.filters.staleOnly ? 'No edge is stale.' : 'No edge matches.'
  }

  function reload() {
    dismiss()
    cache?.dispose()
    total = null
    failure = null
    cache = createWindowCache({
      size: 200,
      load: (offset, limit, signal) =>
        api(
          `edges${query({ offset, limit, labels: ctx.filters.edgeLabels, stale: ctx.filters.staleOnly })}`,
          { signal }
        ),
      totalOf: (d) => d.total,
      onLoad(_offset, d) {
        setServerNow(d.now, d.staleAfterMs)
        failure = null
        total = d.total
        list.setCount(total)
        list.invalidate()
        showTotals()
      },
      onError(e) {
        failure = e
        ctx.onError(e)
        showTotals()
      },
    })
    list.setCount(0)
    list.scroller.scrollTop = 0
    cache.ensure(0, 0)
    showTotals()
  }

  listHost.addEventListener('click', (e) => {
    const row = e.target.closest('[data-testid=edge-row][data-key]')
    if (!row || e.target.closest('a')) return
    const { key, edge: syncTarget, inventory } = row.dataset
    showEdge({ edge: { key, syncTarget, inventory }, opener: row.querySelector('button') ?? row })
  })

  reload()
  return {
    refresh: () => cache.refresh(),
    tick() {},
    destroy() {
      cache.dispose()
      list.destroy()
      clear(host)
    },
  }
}
