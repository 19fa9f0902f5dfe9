/**
 * A matrix row's header, one EdgePlacement: its worst state, name and Ready, then two counts kept
 * apart — the edges it is at ("2 edges"; "1 of 2 edges" when the row counts only the edges a
 * label filter matches, `rowScope` 'filter') and its copies, an object at an edge, by state
 * ("10 copies: !1 ✓9"). The tooltip spells both out, with the stale edges and the objects. A row
 * whose objects a Rollout governs shows its revision in flight and current wave (rollout-view.js).
 */
import { h } from './dom.js'
import { count, plural } from './format.js'
import { rowRollout } from './rollout-view.js'
import { chip, countsText, STATES, stateOf, tallies } from './states.js'

const copiesOf = (p) => STATES.reduce((n, s) => n + (p.totals?.[s] ?? 0), 0)

/** "2 edges", or "1 of 2 edges" when the row counts a label filter's edges only. */
const edgesText = (p, scope) =>
  scope === 'filter'
    ? `${count(p.destinations)} of ${plural(p.allDestinations, 'edge')}`
    : plural(p.destinations, 'edge')

function title(p, scope, ready) {
  const why = [p.readyReason, p.readyMessage].filter(Boolean).join(': ')
  const where =
    scope === 'filter'
      ? `At the ${plural(p.destinations, 'edge')} matching the label filter (of ${count(p.allDestinations)} it selects)`
      : `At every edge it selects: ${plural(p.destinations, 'edge')}`
  return [
    p.name,
    `${ready}${why ? ` (${why})` : ''}`,
    `${where}, ${count(p.staleDestinations)} of them stale`,
    `${plural(p.objectCount, 'object')}; ${plural(copiesOf(p), 'copy', 'copies')} (an object at an edge): ${countsText(p.totals)}`,
  ].join('\n')
}

/**
 * The header of row `p` (a row of the matrix answer) under `scope` (the answer's rowScope);
 * `rollouts`: the answer's Rollouts by name.
 */
export function rowHead(p, scope, rollouts = new Map()) {
  const ready = p.ready === 'True' ? 'Ready' : p.ready === 'False' ? 'Not ready' : 'Ready unknown'
  const copies = copiesOf(p)
  return h(
    'button',
    {
      type: 'button',
      class: 'row-head',
      'data-testid': 'row-head',
      'data-placement': p.name,
      'data-state': stateOf(p.worst),
      title: title(p, scope, ready),
    },
    h(
      'span',
      { class: 'row-line' },
      chip(p.worst, true),
      h('span', { class: 'row-name' }, p.name),
      rowRollout(rollouts, p.rollouts),
      h('span', { class: `ready ready-${p.ready.toLowerCase()}` }, ready)
    ),
    h(
      'span',
      { class: 'row-meta' },
      h('span', { class: 'row-edges', 'data-testid': 'row-edges' }, edgesText(p, scope)),
      h(
        'span',
        { class: 'row-copies', 'data-testid': 'row-copies' },
        h('span', null, `${plural(copies, 'copy', 'copies')}${copies ? ':' : ''}`),
        copies ? tallies(p.totals) : null
      )
    )
  )
}
