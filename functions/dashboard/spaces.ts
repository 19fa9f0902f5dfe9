/**
 * `GET /ui/api/spaces`: the workload spaces the dashboard can show — those holding EdgePlacements
 * that the principal reaches (one cross-space list of EdgePlacements), with how many each holds,
 * by path; at most MAX_SPACES. The edge service provider's spaces (mailboxes and below) hold no
 * placements, whatever an edge planted there (lib/tenancy/policy.ts).
 */
import { EDGE_PLACEMENTS } from '../../lib/apis/gvr.ts'
import { maySee } from '../../lib/auth/tokens.ts'
import { CLUSTER_ANNOTATION } from '../../lib/kube/types.ts'
import { mapLimit } from '../../lib/map-limit.ts'
import { isServiceProviderPath } from '../../lib/tenancy/policy.ts'
import type { View } from './view.ts'

export const MAX_SPACES = 500

export async function spacesOf(view: View) {
  const counts = new Map<string, number>()
  for (const ep of await view.client.list('*', EDGE_PLACEMENTS)) {
    const id = ep.metadata.annotations?.[CLUSTER_ANNOTATION]
    if (id && !ep.metadata.deletionTimestamp) counts.set(id, (counts.get(id) ?? 0) + 1)
  }
  const named = await mapLimit([...counts], 8, async ([id, placements]) => ({
    path: await view.pathOf(id),
    placements,
  }))
  const items = named.filter(
    (s) => maySee(view.principal, s.path) && !isServiceProviderPath(s.path)
  )
  items.sort((a, b) => a.path.localeCompare(b.path))
  return { items: items.slice(0, MAX_SPACES) }
}
