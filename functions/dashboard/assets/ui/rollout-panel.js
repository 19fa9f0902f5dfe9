/**
 * The panels' Rollout parts (the placement panel and the cell drill-down): a section per Rollout
 * governing the placement's objects — its phase, the revision in flight and the completed one,
 * the current wave and a table of its waves in order (revision, what edges above the cut keep,
 * the share promoted, and where its edges stand) — and an edge's wave under each, in words.
 */
import { h } from './dom.js'
import { count } from './format.js'
import { section } from './panel.js'
import { panelWaveText, rolloutSummary } from './rollout-marks.js'
import { tableOf } from './table.js'

const wavesTable = (r) =>
  tableOf(r.waves, {
    testid: 'rollout-waves',
    head: [
      '#',
      'Wave',
      'Revision',
      'Others keep',
      'Promoted',
      'Ready',
      'Failed',
      'Stale',
      'Pending',
    ],
    none: 'No waves.',
    row: (w, i) =>
      h(
        'tr',
        {
          'data-wave': w.name,
          class: r.currentWave === w.name ? 'wave-row-current' : '',
        },
        h('td', null, String(i + 1)),
        h('td', null, w.name, w.approval ? ' (approval)' : ''),
        h('td', null, w.revision !== undefined ? `r${w.revision}` : '—'),
        h('td', null, w.from !== undefined && (w.cut ?? 1) < 1 ? `r${w.from}` : '—'),
        h('td', null, w.cut !== undefined ? `${Math.round(w.cut * 100)} %` : '—'),
        h('td', { class: 'num' }, `${count(w.ready)}/${count(w.edges)}`),
        h('td', { class: 'num' }, count(w.failed)),
        h('td', { class: 'num' }, count(w.stale)),
        h('td', { class: 'num' }, count(w.pending))
      ),
  })

/** A section per Rollout of `list` (an answer's `rollouts`), or null when there is none. */
export const rolloutSections = (list) =>
  (list ?? []).map((r) =>
    section(
      `Rollout ${r.name}`,
      h(
        'p',
        {
          class: r.invalid ? 'error-text' : 'muted',
          'data-testid': 'rollout-summary',
          'data-rollout': r.name,
        },
        rolloutSummary(r)
      ),
      r.invalid ? null : wavesTable(r)
    )
  )

/** An edge's waves in words ("shop: wave 1 canary"), or a dash. */
export const waveCell = (list, edge) => {
  const text = panelWaveText(list, edge)
  return text ? h('span', { 'data-testid': 'edge-wave' }, text) : h('span', { class: 'muted' }, '—')
}
