/**
 * A workload space as a placement step's batch reads it (snapshot.ts `space`): every placeable
 * object of every resource a placement could select there, at the space's preferred versions,
 * with the space's grant.
 */
import { categoryOf } from '../apis/categories.ts'
import type { HubClient } from '../hub/client.ts'
import type { Registry } from '../kube/registry.ts'
import type { WorkloadGrant } from '../tenancy/policy.ts'
import type { ResourceGrant, SourceObject, SpaceSnapshot } from './types.ts'

/** What reading a space needs (snapshot.ts's deps). */
export type ReadSpaceDeps = {
  client: HubClient
  registry(spaceId: string): Promise<Registry>
  collections?(spaceId: string): Promise<ReadonlySet<string> | undefined>
}

/** What a space that no longer exists may send: no privileged resource. */
const NO_GRANT: ResourceGrant = { allowsResource: () => false }

/**
 * Lists every placeable resource of a space that may hold objects (all of them when the space
 * keeps no index of its collections); resources that cannot be listed are skipped. The space's
 * grant (what privileged resources it may send) comes with it.
 */
export async function readSpace(
  deps: ReadSpaceDeps,
  spaceId: string,
  grantOf: (spaceId: string) => Promise<WorkloadGrant | undefined>
): Promise<SpaceSnapshot> {
  const [registry, kept, grant] = await Promise.all([
    deps.registry(spaceId),
    deps.collections?.(spaceId),
    grantOf(spaceId),
  ])
  const wanted = registry
    .all()
    .filter((info) => info.verbs.includes('list'))
    .filter((info) => categoryOf(info.group, info.resource) !== 'not-for-edge')
    .filter((info) => !kept || kept.has(`${info.group}/${info.resource}`))
  const lists = await Promise.all(
    wanted.map(async (info) => {
      const version = registry.group(info.group)?.preferredVersion ?? info.versions[0] ?? ''
      const gvr = { group: info.group, version, resource: info.resource }
      const items = await deps.client.list(spaceId, gvr)
      return items.map((object): SourceObject => ({ ...gvr, namespaced: info.namespaced, object }))
    })
  )
  return { spaceId, objects: lists.flat(), grant: grant ?? NO_GRANT }
}
