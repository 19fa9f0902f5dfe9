/**
 * The result of a placement preview (`POST /ui/api/preview`): for each of its bounded lists
 * (`{count, items}`: Locations, SyncTargets, destinations, objects, skipped, unselected) the count
 * and the first items, and the unselected Locations with their reasons.
 */
import { h } from './dom.js'
import { count, groupResource, nsName } from './format.js'

const SHOWN = 10
const ORDER = ['locations', 'syncTargets', 'destinations', 'objects', 'skipped', 'unselected']
const TITLES = {
  locations: 'Locations',
  syncTargets: 'SyncTargets',
  destinations: 'Destinations',
  objects: 'Objects',
  skipped: 'Skipped objects',
  unselected: 'Locations not selected',
  unselectedLocations: 'Locations not selected',
}

const isBounded = (v) => v && typeof v === 'object' && typeof v.count === 'number'

/** One line for an item of any of the preview's lists. */
function itemText(it) {
  if (typeof it !== 'object' || it === null) return String(it)
  const where = it.inventory ?? it.cluster
  const suffix = where ? ` (${where})` : ''
  if (it.syncTargetName) {
    const objects = isBounded(it.objects) ? `, ${count(it.objects.count)} objects` : ''
    return `${it.syncTargetName} · Location ${it.locationName ?? '?'}${suffix}${objects}`
  }
  if (it.resource) return `${groupResource(it)} ${nsName(it)}${it.reason ? ` — ${it.reason}` : ''}`
  if (it.reason) return `${it.name}${suffix} — ${it.reason}${it.message ? `: ${it.message}` : ''}`
  return `${it.name ?? JSON.stringify(it)}${suffix}`
}

function list(key, total, items) {
  const shown = (items ?? []).slice(0, SHOWN)
  return h(
    'div',
    { class: 'preview-list', 'data-testid': `preview-${key}`, 'data-count': String(total) },
    h(
      'h4',
      null,
      `${TITLES[key] ?? key}: ${count(total)}`,
      total > shown.length ? h('span', { class: 'muted' }, ` (first ${shown.length})`) : null
    ),
    shown.length
      ? h(
          'ul',
          { class: 'plain-list' },
          shown.map((it) => h('li', null, itemText(it)))
        )
      : null
  )
}

/** Fills `out` with `preview`. */
export function renderPreview(out, preview) {
  const keys = Object.keys(preview)
  const bounded = keys.filter((k) => isBounded(preview[k]))
  bounded.sort((a, b) => (ORDER.indexOf(a) + 1 || 99) - (ORDER.indexOf(b) + 1 || 99))
  for (const k of bounded) out.append(list(k, preview[k].count, preview[k].items))
  if (typeof preview.unselectedLocationCount === 'number' && !isBounded(preview.unselected))
    out.append(
      list('unselectedLocations', preview.unselectedLocationCount, preview.unselectedLocations)
    )
  if (!out.childElementCount) out.append(h('p', { class: 'muted' }, 'The preview is empty.'))
}
