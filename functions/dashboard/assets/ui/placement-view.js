/**
 * The placement panel (`GET /ui/api/placement`): the placement's state and conditions, the edges
 * it selects, the Locations it does not select with the reason for each, its spec (YAML), and a
 * preview (`POST /ui/api/preview`, the text sent as YAML: JSON is YAML too) of what the spec,
 * edited or pasted, would select, scrolled into view when it comes. With Rollouts governing its
 * objects: a section per Rollout (rollout-panel.js) and each selected edge's wave.
 */
import { api, isAbort, query } from './api.js'
import { clear, h } from './dom.js'
import { count, pretty } from './format.js'
import { openPanel, section } from './panel.js'
import { renderPreview } from './preview-view.js'
import { rolloutSections, waveCell } from './rollout-panel.js'
import { chip, countsText, stateOf } from './states.js'
import { tableOf } from './table.js'
import { facts, labelChips, loading, seenWithStale } from './widgets.js'

const conditionsTable = (conditions) =>
  tableOf(conditions, {
    testid: 'conditions',
    head: ['Type', 'Status', 'Reason', 'Message', 'Since'],
    none: 'No conditions yet.',
    row: (c) =>
      h(
        'tr',
        { 'data-type': c.type },
        h('td', null, c.type),
        h('td', { class: `cond cond-${String(c.status).toLowerCase()}` }, c.status),
        h('td', null, c.reason ?? ''),
        h('td', { class: 'message' }, c.message ?? ''),
        h('td', null, c.lastTransitionTime ?? '')
      ),
  })

const shownOf = (list, what) =>
  list.total > list.items.length
    ? `${what} (first ${count(list.items.length)} of ${count(list.total)})`
    : `${what} (${count(list.total)})`

const selectedTable = (selected, rollouts) =>
  tableOf(selected.items, {
    testid: 'selected-edges',
    head: [
      'SyncTarget',
      'Inventory',
      'Location',
      'Labels',
      ...(rollouts.length ? ['Wave'] : []),
      'Last seen',
    ],
    none: 'It selects no edge.',
    row: (e) =>
      h(
        'tr',
        { 'data-testid': 'selected', 'data-edge': e.syncTarget, 'data-stale': String(e.stale) },
        h('td', null, e.syncTarget),
        h('td', null, e.inventory),
        h('td', null, e.location),
        h('td', null, labelChips(e.labels)),
        rollouts.length ? h('td', null, waveCell(rollouts, e)) : null,
        h('td', null, seenWithStale(e))
      ),
  })

const unselectedTable = (unselected) =>
  tableOf(unselected.items, {
    testid: 'unselected-locations',
    head: ['Location', 'Inventory', 'Reason', 'Why'],
    none: 'Every Location is selected.',
    row: (u) =>
      h(
        'tr',
        { 'data-testid': 'unselected', 'data-location': u.name, 'data-reason': u.reason },
        h('td', null, u.name),
        h('td', null, u.inventory ?? u.cluster),
        h('td', null, h('span', { class: 'badge badge-reason' }, u.reason)),
        h('td', { class: 'message' }, u.message)
      ),
  })

/** The preview's result, or its error, scrolled into the panel's view (it is below the spec). */
function showResult(out, ...children) {
  clear(out).append(...children)
  out.scrollIntoView({ block: 'start' })
}

function previewSection(space, specYaml, signal) {
  const area = h('textarea', {
    id: 'preview-spec',
    class: 'code-input',
    rows: '10',
    spellcheck: 'false',
    'aria-label': 'EdgePlacement spec, YAML or JSON',
  })
  area.value = specYaml
  const out = h('div', { 'data-testid': 'preview', class: 'preview-out', 'aria-live': 'polite' })
  const run = h(
    'button',
    { type: 'button', id: 'preview-run', class: 'button', 'data-testid': 'preview-run' },
    'Preview'
  )
  run.addEventListener('click', async () => {
    run.disabled = true
    showResult(out, loading())
    try {
      const d = await api(`preview${query({ space })}`, {
        method: 'POST',
        yaml: area.value,
        signal,
      })
      const result = h('div', { class: 'preview-result' })
      renderPreview(result, d.preview ?? {})
      showResult(out, h('h4', { class: 'preview-title' }, 'What it would select now'), result)
    } catch (e) {
      if (!isAbort(e)) showResult(out, h('p', { class: 'error-text', role: 'alert' }, e.message))
    } finally {
      run.disabled = false
    }
  })
  return section(
    'Preview',
    h(
      'p',
      { class: 'muted' },
      'What this spec would select now (a server dry run; nothing is written). Edit it, or paste an EdgePlacement or its spec, in YAML or JSON.'
    ),
    area,
    h('div', { class: 'actions' }, run),
    out
  )
}

const readyText = (c) =>
  c
    ? h(
        'span',
        null,
        h('span', { class: `cond cond-${String(c.status).toLowerCase()}` }, c.status),
        c.reason ? ` (${c.reason})` : '',
        c.message ? h('span', { class: 'cond-message' }, c.message) : null
      )
    : 'Unknown'

function render(body, d, space, signal) {
  const p = d.placement ?? {}
  const status = p.status ?? {}
  const summary = status.summary ?? {}
  const ready = (status.conditions ?? []).find((c) => c.type === 'Ready')
  const worst = ['failed', 'stale', 'removing', 'pending', 'applied', 'ready'].find(
    (s) => summary.totals?.[s] > 0
  )
  clear(body).append(
    section(
      'State',
      facts([
        ['Worst', chip(stateOf(worst))],
        ['Ready', readyText(ready)],
        ['Copies', countsText(summary.totals)],
        [
          'Edges',
          `${count(summary.destinations ?? 0)} (${count(summary.staleDestinations ?? 0)} stale)`,
        ],
        ['Objects', count(summary.objectCount ?? 0)],
        ['Labels', labelChips(p.metadata?.labels)],
      ])
    ),
    section('Conditions', conditionsTable(status.conditions)),
    ...rolloutSections(d.rollouts),
    section(shownOf(d.selected, 'Selected edges'), selectedTable(d.selected, d.rollouts ?? [])),
    section(shownOf(d.unselected, 'Locations not selected'), unselectedTable(d.unselected)),
    previewSection(space, d.specYaml ?? pretty(p.spec ?? {}), signal)
  )
}

/** Opens the panel of placement `name` in `space`. */
export async function showPlacement(opts) {
  const { space, name } = opts
  const { body, signal } = openPanel({
    testid: 'placement-panel',
    title: name,
    subtitle: `EdgePlacement in ${space}`,
    opener: opts.opener,
  })
  body.append(loading())
  try {
    const d = await api(`placement${query({ space, name })}`, { signal })
    if (!signal.aborted) render(body, d, space, signal)
  } catch (e) {
    if (isAbort(e)) return
    clear(body).append(h('p', { class: 'error-text', role: 'alert' }, e.message))
  }
}
