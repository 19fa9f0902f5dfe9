/**
 * Small pieces the panels and the edges view share: an age that ticks ("12 s ago"), a stale
 * badge (grey: unknown, not failed), label chips, a definition list and a pretty-JSON block.
 */
import { h } from './dom.js'
import { age, labelPairs, pretty } from './format.js'

/** "12 s ago", kept current by tickAges (format.js). */
export const ageSpan = (ms) =>
  h(
    'span',
    { class: 'age', 'data-seen': ms ?? '', title: ms ? new Date(ms).toISOString() : 'never seen' },
    ms === null || ms === undefined ? 'never' : age(ms)
  )

/** The grey "stale" badge of an edge not heard from lately. */
export const staleBadge = () => h('span', { class: 'badge badge-stale' }, 'stale')

/** Label chips `k=v`, or a dash. */
export const labelChips = (labels) => {
  const pairs = labelPairs(labels)
  if (!pairs.length) return h('span', { class: 'muted' }, '—')
  return h(
    'span',
    { class: 'labels' },
    pairs.map((p) => h('span', { class: 'label', title: p }, p))
  )
}

/** A definition list from [term, value] pairs (values: text or elements), nulls skipped. */
export const facts = (pairs) =>
  h(
    'dl',
    { class: 'facts' },
    pairs
      .filter((p) => p && p[1] !== undefined && p[1] !== null)
      .map(([term, value]) => [h('dt', null, term), h('dd', null, value)])
  )

/** Pretty JSON in a <pre>, or a note when there is none. */
export const jsonBlock = (value, testid, none) =>
  value === null || value === undefined
    ? h('p', { class: 'muted', 'data-testid': testid ? `${testid}-none` : undefined }, none)
    : h('pre', { class: 'json', 'data-testid': testid, tabindex: '0' }, pretty(value))

/** "Loading…" placeholder. */
export const loading = () => h('p', { class: 'muted loading-text' }, 'Loading…')

/** Last seen with the stale badge when stale. */
export const seenWithStale = (edge) =>
  h('span', { class: 'seen' }, edge.stale ? [staleBadge(), ' '] : null, ageSpan(edge.lastSeen))
