/**
 * Which spaces belong to the edge service provider: `root:espw` and every space below it (the
 * mailboxes and whatever was made under them; lib/tenancy/policy.ts `isServiceProviderPath`).
 * Objects found there are data an edge reported, never control: the steps that list placements,
 * slices or SyncTargets across spaces leave out those of such spaces (`withoutServiceProvider`).
 * Objects name their space by id (`kcp.io/cluster`), and an id names one path for good (ids are
 * never reused), so its path is kept for good, in the hub's bounded map per key-value store
 * (mailbox-space.ts `knownSpacePath`, shared with the mailbox check): one read of the id's path
 * the first time a space is asked about, none after. An id no space has (yet, or
 * any more) is not remembered and counts as no service-provider space: its objects are going or
 * not there, and a step that skipped them could not clean up after them; a failed read throws.
 */
import { CLUSTER_ANNOTATION, type KubeObject } from '../kube/types.ts'
import { perStore } from '../store/per-store.ts'
import type { KvStore } from '../store/types.ts'
import { spacePathOf } from '../tenancy/load.ts'
import { isServiceProviderPath } from '../tenancy/policy.ts'
import type { Gvr, HubClient } from './client.ts'
import { knownSpacePath } from './mailbox-space.ts'

/** Whether the space with this id is `root:espw` or below it. */
export type ServiceProviderCheck = (spaceId: string) => Promise<boolean>

/** What a step's key of a service-provider space answers: it is never run. */
export const SERVICE_PROVIDER_OUTCOME = 'ignored: a service-provider space holds no placements'

const CACHE_LIMIT = 20_000

function cached(pathOf: (id: string) => Promise<string | undefined>): ServiceProviderCheck {
  const known = new Map<string, boolean>()
  return async (spaceId) => {
    const hit = known.get(spaceId)
    if (hit !== undefined) return hit
    if (spaceId === 'root' || spaceId === '*' || spaceId === '') return false
    const path = await pathOf(spaceId)
    if (path === undefined) return false
    const answer = isServiceProviderPath(path)
    if (known.size >= CACHE_LIMIT) {
      const oldest = known.keys().next().value
      if (oldest !== undefined) known.delete(oldest)
    }
    known.set(spaceId, answer)
    return answer
  }
}

/** The check over the space registry in `kv`: the hub's cache of space paths (mailbox-space.ts). */
export const serviceProviderSpaceCheck = perStore((kv: KvStore): ServiceProviderCheck => {
  const pathOf = knownSpacePath(kv)
  return async (spaceId) => {
    if (spaceId === 'root' || spaceId === '') return false
    const path = await pathOf(spaceId)
    return path !== undefined && isServiceProviderPath(path)
  }
})

/** The check through a hub client (its space lookups), cached for the check's life. */
export function serviceProviderCheckOver(client: HubClient): ServiceProviderCheck {
  return cached((id) => spacePathOf(client, id))
}

/** The objects whose space (`kcp.io/cluster`) is no service-provider space; each id asked once. */
export async function withoutServiceProvider<T extends Pick<KubeObject, 'metadata'>>(
  objects: readonly T[],
  check: ServiceProviderCheck
): Promise<T[]> {
  const ids = [...new Set(objects.map((o) => o.metadata.annotations?.[CLUSTER_ANNOTATION] ?? ''))]
  const provider = new Set<string>()
  await Promise.all(
    ids.map(async (id) => {
      if (await check(id)) provider.add(id)
    })
  )
  if (provider.size === 0) return [...objects]
  return objects.filter((o) => !provider.has(o.metadata.annotations?.[CLUSTER_ANNOTATION] ?? ''))
}

/** Lists `gvr` in every space, leaving out the objects of service-provider spaces. */
export async function listOutsideServiceProvider(
  client: HubClient,
  gvr: Gvr,
  check: ServiceProviderCheck = serviceProviderCheckOver(client)
): Promise<KubeObject[]> {
  return withoutServiceProvider(await client.list('*', gvr), check)
}
