/**
 * The drill-down panel of one cell (`GET /ui/api/cell`): the edge, then each object the placement
 * sends there with its state and reason, the customized copy exactly as the edge receives it, the
 * status the edge reported, the objects the copy owns at the edge (a Deployment's ReplicaSets and
 * Pods) and the object's Events. An object a Rollout governs says the revision its copy holds (read
 * from the copy's stamp) against its wave's; the edge says its wave under each Rollout.
 */
import { api, query } from './api.js'
import { clear, h } from './dom.js'
import { count, groupResource, nsName, staleAfterText } from './format.js'
import { openLivePanel, section } from './panel.js'
import { waveRevision } from './rollout-marks.js'
import { rolloutSections, waveCell } from './rollout-panel.js'
import { chip, stateOf } from './states.js'
import { tableOf } from './table.js'
import { ageSpan, facts, jsonBlock, labelChips, seenWithStale } from './widgets.js'

const eventsTable = (events) =>
  tableOf(events, {
    testid: 'events',
    className: 'events',
    head: ['Type', 'Reason', 'Message', 'Count', 'Last'],
    none: 'No events.',
    row: (e) =>
      h(
        'tr',
        { class: e.type === 'Warning' ? 'warning' : '' },
        h('td', null, e.type),
        h('td', null, e.reason),
        h('td', { class: 'message' }, e.message),
        h('td', { class: 'num' }, count(e.count)),
        h('td', null, e.lastTimestamp ?? '—')
      ),
  })

/** What the copy owns at the edge, as the agent reported it (kind, name, phase, ready). */
const associatedTable = (list) =>
  tableOf(list, {
    testid: 'associated',
    head: ['Kind', 'Name', 'Phase', 'Ready'],
    none: 'None reported.',
    row: (a) =>
      h(
        'tr',
        null,
        h('td', null, a.kind),
        h('td', null, a.namespace ? `${a.namespace}/${a.name}` : a.name),
        h('td', null, a.phase ?? '—'),
        h(
          'td',
          null,
          a.ready === undefined ? '—' : a.ready ? 'yes' : `no${a.reason ? ` (${a.reason})` : ''}`
        )
      ),
  })

/** "shop r1 (its wave's: r2)", marked when older than its wave's revision. */
function revisionLine(o, d) {
  const r = (d.rollouts ?? []).find((x) => x.name === o.rollout?.name)
  if (!o.rollout || !r) return null
  const at = d.edge?.rollouts?.[r.name]
  const target = waveRevision(r, at?.wave ?? null)
  const held = o.rollout.revision
  const behind = target !== undefined && (held === null || held < target)
  return h(
    'p',
    {
      class: `revision${behind ? ' revision-behind' : ''}`,
      'data-testid': 'object-revision',
      'data-revision': held ?? '',
      'data-behind': String(behind),
    },
    `Rollout ${r.name}: this copy is at `,
    h('strong', null, held === null ? 'no revision (not sent from one)' : `r${held}`),
    target !== undefined ? `; its wave's revision is r${target}` : '',
    behind ? ' (older)' : ''
  )
}

function objectView(o, d) {
  const state = stateOf(o.state)
  return h(
    'article',
    {
      class: 'object',
      'data-testid': 'object',
      'data-state': state,
      'data-name': o.name,
      'aria-label': `${o.kind} ${nsName(o)}`,
    },
    h(
      'header',
      { class: 'object-head' },
      chip(state),
      h('span', { class: 'object-kind' }, o.kind),
      h('span', { class: 'object-name' }, nsName(o)),
      h('span', { class: 'muted object-gvr' }, `${groupResource(o)}/${o.version}`)
    ),
    o.reason || o.message
      ? h(
          'p',
          { class: `reason s-text-${state}`, 'data-testid': 'reason' },
          o.reason ? h('strong', null, o.reason) : null,
          o.reason && o.message ? ': ' : '',
          o.message ?? ''
        )
      : null,
    revisionLine(o, d),
    h('h4', null, 'Copy the edge receives'),
    jsonBlock(o.copy, 'copy', 'No copy in the mailbox for this edge.'),
    h('h4', null, 'Reported by the edge'),
    jsonBlock(o.reported, 'reported', 'Nothing reported yet.'),
    h('h4', null, 'Owned at the edge'),
    associatedTable(o.associated),
    h('h4', null, 'Events'),
    eventsTable(o.events)
  )
}

function render(body, d, edge) {
  const e = d.edge ?? edge
  clear(body)
  body.append(
    section(
      'Edge',
      facts([
        ['SyncTarget', e.syncTarget],
        ['Inventory', e.inventory],
        ['Location', e.location],
        ['Labels', labelChips(e.labels)],
        d.rollouts?.length ? ['Wave', waveCell(d.rollouts, e)] : null,
        ['Last seen', seenWithStale(e)],
        ['Mailbox', h('code', null, e.key)],
      ]),
      e.stale
        ? h(
            'p',
            { class: 'note note-stale' },
            `This edge is stale: its agent sent no heartbeat for ${staleAfterText()} or more (last seen `,
            ageSpan(e.lastSeen),
            '). What it runs now is unknown, not failed.'
          )
        : null
    ),
    section(
      d.total > d.objects.length
        ? `Objects (${count(d.objects.length)} of ${count(d.total)})`
        : `Objects (${count(d.total)})`,
      d.objects.length
        ? d.objects.map((o) => objectView(o, d))
        : h('p', { class: 'muted' }, 'The placement sends no object.')
    ),
    ...rolloutSections(d.rollouts)
  )
}

/**
 * Opens the drill-down of `placement` at `edge` (an edge item of the matrix); while it is open,
 * each live refresh reads it again (one read at a time) and redraws it where it was scrolled.
 */
export function showCell(opts) {
  const { space, placement, edge } = opts
  return openLivePanel({
    testid: 'drill',
    title: `${placement} at ${edge.syncTarget}`,
    subtitle: `${space} · ${edge.inventory}`,
    opener: opts.opener,
    read: (signal) => api(`cell${query({ space, placement, edge: edge.key })}`, { signal }),
    draw: (body, d) => render(body, d, edge),
  })
}
