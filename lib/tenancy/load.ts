/**
 * Reads the tenancy policy (policy.ts) from the hub: the root space's Inventory and
 * PlacementGrant objects, two lists, decoded by their schemas (objects being deleted count as
 * gone). A failed read throws: a step that cannot tell who may place where does nothing rather
 * than guess. Callers read it once per run or batch and keep it for that run only, so a grant's
 * change reaches the next run. `spacePathOf` names a space by its id (the hub's space cache), or
 * undefined for one that no longer exists.
 */
import { decodeEach } from '../apis/decode.ts'
import { InventorySchema, PlacementGrantSchema } from '../apis/grants.ts'
import { INVENTORIES, PLACEMENT_GRANTS } from '../apis/gvr.ts'
import { isNotFound } from '../errors.ts'
import type { HubClient } from '../hub/client.ts'
import type { KubeObject } from '../kube/types.ts'
import { type TenancyPolicy, tenancyPolicy } from './policy.ts'

const live = (o: KubeObject) => !o.metadata.deletionTimestamp

export async function loadTenancy(client: HubClient): Promise<TenancyPolicy> {
  const [inventories, grants] = await Promise.all([
    client.list('root', INVENTORIES),
    client.list('root', PLACEMENT_GRANTS),
  ])
  const ignore = () => undefined
  return tenancyPolicy(
    decodeEach(InventorySchema, inventories.filter(live), ignore),
    decodeEach(PlacementGrantSchema, grants.filter(live), ignore)
  )
}

export async function spacePathOf(client: HubClient, spaceId: string): Promise<string | undefined> {
  try {
    return (await client.space(spaceId)).path
  } catch (e) {
    if (isNotFound(e)) return undefined
    throw e
  }
}
