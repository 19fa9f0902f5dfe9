/**
 * The matrix's Rollout elements (rules in rollout-marks.js): the bar above the grid naming each
 * Rollout governing a row with its phase, revisions and its waves in order (each numbered and
 * colored as the column marks are, the current one outlined, with its revision and how many of
 * its edges are ready); a column's wave marks; a cell's revision, marked when behind its wave's;
 * and a row's badge (the Rollout's revision in flight and current wave, the rest in its title).
 */
import { h } from './dom.js'
import { count } from './format.js'
import { rolloutSummary } from './rollout-marks.js'

const colorOf = (index) => `wave-c${index === 0 ? 0 : ((index - 1) % 6) + 1}`

function waveChip(r, w, i) {
  const current = r.currentWave === w.name && r.revision !== r.completedRevision
  const title = [
    `wave ${i + 1} ${w.name}${w.revision !== undefined ? ` at r${w.revision}` : ''}`,
    w.from !== undefined && w.cut !== undefined && w.cut < 1
      ? `${Math.round(w.cut * 100)} % of its edges promoted, the rest at r${w.from}`
      : null,
    `${count(w.ready)} of ${count(w.edges)} ready · ${count(w.failed)} failed · ${count(w.stale)} stale · ${count(w.pending)} pending`,
    w.approval ? 'waits for an approval' : null,
  ]
  return h(
    'span',
    {
      class: `wave-chip ${colorOf(i + 1)}${current ? ' wave-current' : ''}`,
      'data-testid': 'wave',
      'data-wave': w.name,
      'data-revision': w.revision ?? '',
      title: title.filter(Boolean).join('\n'),
    },
    h('span', { class: 'wave-num' }, String(i + 1)),
    h('span', null, w.name),
    w.revision !== undefined ? h('span', { class: 'wave-rev' }, `r${w.revision}`) : null,
    h('span', { class: 'wave-ready' }, `${count(w.ready)}/${count(w.edges)} ready`)
  )
}

/** The bar of the Rollouts named in `names` (those governing some row), or null. */
export function rolloutBar(rollouts, names) {
  const shown = names.map((n) => rollouts.get(n)).filter(Boolean)
  if (!shown.length) return null
  return h(
    'div',
    { class: 'rollout-bar', 'data-testid': 'rollouts' },
    shown.map((r) =>
      h(
        'div',
        {
          class: `rollout${r.invalid ? ' rollout-invalid' : ''}`,
          'data-testid': 'rollout',
          'data-rollout': r.name,
          'data-phase': r.phase ?? '',
          'data-revision': r.revision ?? '',
          'data-completed': r.completedRevision ?? '',
          'data-current-wave': r.currentWave ?? '',
        },
        h('span', { class: 'rollout-name' }, `Rollout ${r.name}`),
        h('span', { class: 'rollout-summary' }, rolloutSummary(r)),
        h(
          'span',
          { class: 'waves' },
          r.waves.map((w, i) => waveChip(r, w, i))
        )
      )
    ),
    h(
      'span',
      { class: 'legend-rev' },
      h('span', { class: 'legend-rev-mark', 'aria-hidden': 'true' }),
      'r2: the revision a cell’s copies hold; dashed: older than its wave’s; dotted: not the edge’s turn yet (maxEdges); a column’s number: its wave'
    )
  )
}

/** A column header's wave marks (edgeWaves' output), or null. */
export const waveMarks = (marks) =>
  marks.length
    ? h(
        'span',
        { class: 'wave-marks' },
        marks.map((m) =>
          h(
            'span',
            {
              class: `wave-mark ${colorOf(m.index)}`,
              'data-testid': 'wave-mark',
              'data-rollout': m.rollout,
              'data-wave': m.wave ?? '',
              title: m.title,
            },
            m.index === 0 ? '–' : String(m.index)
          )
        )
      )
    : null

/** A cell's revision (the first of cellMarks' output), or null. */
export const cellRevision = (marks) =>
  marks[0]
    ? h(
        'span',
        { class: 'cell-rev', 'data-testid': 'cell-revision', 'aria-hidden': 'true' },
        marks[0].text
      )
    : null

/** A row header's Rollout badge: the first governing Rollout's revision and current wave. */
export function rowRollout(rollouts, names) {
  const r = rollouts.get(names?.[0])
  if (!r || r.invalid || !r.completedRevision) return null
  const moving = r.revision !== undefined && r.revision !== r.completedRevision
  const text = moving ? `r${r.revision} → ${r.currentWave ?? '?'}` : `r${r.completedRevision}`
  return h(
    'span',
    {
      class: `row-rollout${moving ? ' moving' : ''}`,
      'data-testid': 'row-rollout',
      title: names.map((n) => `Rollout ${n}: ${rolloutSummary(rollouts.get(n) ?? {})}`).join('\n'),
    },
    text
  )
}
