/**
 * The edge panel (`GET /ui/api/edge`), opened from a row of the edges view: the edge (its state
 * over the copies it holds, inventory, labels, Locations, last seen, agent, how it polls and its
 * last poll, mailbox) and the copies it holds that the session may see, worst first, each with its
 * state, its reason and the placements it came from; a placement opens the drill-down of that
 * placement at this edge (cell-view.js). A stale edge's copies are stale, unknown rather than
 * failed, and it says so. While open, each live refresh reads it again.
 */
import { api, query } from './api.js'
import { showCell } from './cell-view.js'
import { clear, h } from './dom.js'
import {
  count,
  groupResource,
  lastSeenText,
  nsName,
  plural,
  pollText,
  pollTitle,
} from './format.js'
import { openLivePanel, section } from './panel.js'
import { chip, countsText, stateOf } from './states.js'
import { tableOf } from './table.js'
import { ageSpan, facts, labelChips, seenWithStale } from './widgets.js'

const dash = () => h('span', { class: 'muted' }, '—')

function sourceButtons(edge, copy) {
  if (!copy.sources?.length) return dash()
  return copy.sources.flatMap((s) =>
    s.placements.map((placement) =>
      h(
        'button',
        {
          type: 'button',
          class: 'link-button',
          'data-testid': 'open-cell',
          'data-space': s.space,
          'data-placement': placement,
          title: `Open ${placement} (${s.space}) at ${edge.syncTarget}`,
          onclick: (e) => showCell({ space: s.space, placement, edge, opener: e.currentTarget }),
        },
        `${s.space} · ${placement}`
      )
    )
  )
}

const copiesTable = (edge, copies) =>
  tableOf(copies, {
    testid: 'edge-copies',
    head: ['State', 'Object', 'Why', 'From'],
    none: 'It holds no copy you may see.',
    row: (c) =>
      h(
        'tr',
        { 'data-testid': 'edge-copy', 'data-state': stateOf(c.state), 'data-name': c.name },
        h('td', null, chip(c.state)),
        h('td', null, h('code', null, `${groupResource(c)} ${nsName(c)}`)),
        h(
          'td',
          { class: 'message' },
          c.reason ? h('strong', null, c.reason) : dash(),
          c.message ? `: ${c.message}` : ''
        ),
        h('td', null, sourceButtons(edge, c))
      ),
  })

function render(body, d) {
  const e = d.edge
  const locations = e.locations?.length ? e.locations.map((l) => l.name).join(', ') : dash()
  clear(body).append(
    section(
      'Edge',
      facts([
        ['State', h('span', null, chip(e.worst), ' ', countsText(e.counts))],
        ['Inventory', e.inventory],
        ['Labels', labelChips(e.labels)],
        ['Locations', locations],
        ['Last seen', seenWithStale(e)],
        ['Agent', e.agentVersion ?? dash()],
        [
          'Poll',
          pollText(e) === null
            ? dash()
            : h('span', { 'data-testid': 'edge-poll' }, `${pollText(e)} · ${pollTitle(e)}`),
        ],
        [
          'Last poll',
          e.lastPoll === null
            ? dash()
            : h('span', { 'data-testid': 'edge-last-poll' }, ageSpan(e.lastPoll)),
        ],
        ['Mailbox', h('code', null, e.key)],
        ['Holds', e.holds === null ? dash() : plural(e.holds, 'object')],
      ]),
      e.stale
        ? h(
            'p',
            { class: 'note note-stale' },
            `This edge is stale (${lastSeenText(e.lastSeen)}): what it runs now is unknown, not failed.`
          )
        : null
    ),
    section(
      d.total > d.copies.length
        ? `Copies (first ${count(d.copies.length)} of ${count(d.total)})`
        : `Copies (${count(d.total)})`,
      copiesTable(e, d.copies)
    )
  )
}

/** Opens the panel of the edge `edge` (an item of the edges view: key, syncTarget, inventory). */
export function showEdge(opts) {
  const { edge } = opts
  return openLivePanel({
    testid: 'edge-panel',
    title: edge.syncTarget,
    subtitle: `SyncTarget in ${edge.inventory}`,
    opener: opts.opener,
    read: (signal) => api(`edge${query({ key: edge.key })}`, { signal }),
    draw: render,
  })
}
