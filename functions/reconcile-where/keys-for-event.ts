/**
 * Which where-keys an event affects. An EdgePlacement event affects its own key, a
 * SinglePlacementSlice event its placement's (lib/placement/slice-owner.ts). A Location or SyncTarget event affects every EdgePlacement in every space: a relabel
 * can add a Location to, or drop it from, any placement's selection, and listing the placements
 * is cheaper than working out which selectors the old and new labels satisfied. An object of
 * `root:espw` or below (a mailbox) affects nothing, and placements there are no keys
 * (lib/hub/service-provider-space.ts).
 */
import { EDGE_PLACEMENTS } from '../../lib/apis/gvr.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import {
  type ServiceProviderCheck,
  serviceProviderCheckOver,
  withoutServiceProvider,
} from '../../lib/hub/service-provider-space.ts'
import { CLUSTER_ANNOTATION, type KubeObject } from '../../lib/kube/types.ts'
import { sliceWhereKey } from '../../lib/placement/slice-owner.ts'
import { whereKeyOf } from './names.ts'

export type WhereEventKind = 'EdgePlacement' | 'SinglePlacementSlice' | 'Location' | 'SyncTarget'

export async function keysForEvent(
  kind: WhereEventKind,
  obj: KubeObject,
  client: HubClient,
  isServiceProvider: ServiceProviderCheck = serviceProviderCheckOver(client)
): Promise<string[]> {
  if (await isServiceProvider(obj.metadata.annotations?.[CLUSTER_ANNOTATION] ?? '')) return []
  if (kind === 'EdgePlacement' || kind === 'SinglePlacementSlice') {
    const key = kind === 'EdgePlacement' ? whereKeyOf(obj) : sliceWhereKey(obj)
    return key ? [key] : []
  }
  const placements = await withoutServiceProvider(
    await client.list('*', EDGE_PLACEMENTS),
    isServiceProvider
  )
  const keys = placements.map(whereKeyOf)
  return [...new Set(keys.filter((k): k is string => !!k))].sort()
}
