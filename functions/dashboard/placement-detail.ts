/**
 * `GET /ui/api/placement`: one EdgePlacement as the dashboard's placement panel shows it — the
 * object with its status, the first MAX_SELECTED of the edges it selects (as matrix columns are
 * shown) and the Locations it does not select with the reason, as the where step wrote them in
 * its status (`status.unselectedLocations`, bounded there; `unselectedLocationCount` counts all),
 * and its spec as YAML (`specYaml`), which the panel's preview starts from. With Rollouts in the
 * space (rollouts.ts, one list): `rollouts`, those governing some of its objects (phase, the
 * revision in flight and the completed one, the current wave, every wave), and each edge listed
 * with its wave under each.
 */
import { stringify } from 'yaml'
import { notFound } from '../../lib/errors.ts'
import type { Space } from '../../lib/hub/spaces.ts'
import { edgeWindow } from './edge-window.ts'
import { columnsOf } from './matrix.ts'
import { rolloutsOf, withWaves } from './rollouts.ts'
import { placementsOf, type View } from './view.ts'

export const MAX_SELECTED = 100

type Unselected = { cluster: string; name: string; reason: string; message?: string }

export async function placementDetail(view: View, space: Space, name: string) {
  const placements = await placementsOf(view, space)
  const p = placements.find((x) => x.placement.metadata.name === name)
  if (!p) throw notFound('edgeplacements', { group: 'edge.kcp.io', name })
  const selected = columnsOf([p])
  const shown = selected.slice(0, MAX_SELECTED)
  const [edges, rollouts] = await Promise.all([edgeWindow(view, shown), rolloutsOf(view, space)])
  const governing = new Set(rollouts.governing(p.objects))
  const status = (p.placement.status ?? {}) as {
    unselectedLocations?: Unselected[]
    unselectedLocationCount?: number
  }
  const listed = status.unselectedLocations ?? []
  const items = await Promise.all(
    listed.map(async (u) => ({ ...u, inventory: await view.pathOf(u.cluster) }))
  )
  return {
    placement: p.placement,
    specYaml: stringify(p.placement.spec ?? {}),
    selected: {
      total: selected.length,
      items: await withWaves(rollouts, edges.items, shown, edges.inventory),
    },
    rollouts: rollouts.views.filter((r) => governing.has(r.name)),
    unselected: { total: status.unselectedLocationCount ?? listed.length, items },
  }
}
