/**
 * The Locations a workload space may place onto: of the given Locations, those in inventory spaces
 * (policy.isInventory) that the space's grant allows (WorkloadGrant.allowsLocation, by inventory
 * space and labels). The where step, the dry-run preview and the unselected reasons see only
 * these, so an ungranted inventory's Locations — their names, labels and reasons — never reach a
 * tenant. A Location's space is named by its `kcp.io/cluster` id, resolved once per space (the
 * hub's space cache); a space that no longer exists holds none. A workload space that no longer
 * exists (`grant` undefined) is granted nothing.
 */
import type { LocationObject } from '../apis/edge-objects.ts'
import type { HubClient } from '../hub/client.ts'
import { CLUSTER_ANNOTATION } from '../kube/types.ts'
import { spacePathOf } from './load.ts'
import type { TenancyPolicy, WorkloadGrant } from './policy.ts'

export async function grantedLocations(
  client: HubClient,
  policy: TenancyPolicy,
  grant: WorkloadGrant | undefined,
  locations: readonly LocationObject[]
): Promise<LocationObject[]> {
  if (!grant) return []
  const ids = new Set(locations.map((l) => l.metadata.annotations?.[CLUSTER_ANNOTATION] ?? ''))
  const paths = new Map<string, string | undefined>()
  await Promise.all(
    [...ids].map(async (id) => paths.set(id, id ? await spacePathOf(client, id) : undefined))
  )
  return locations.filter((l) => {
    const path = paths.get(l.metadata.annotations?.[CLUSTER_ANNOTATION] ?? '')
    return (
      path !== undefined &&
      policy.isInventory(path) &&
      grant.allowsLocation(path, l.metadata.labels)
    )
  })
}
