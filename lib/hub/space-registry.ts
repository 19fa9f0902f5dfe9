/**
 * The resources a space serves: the built-ins (root also serves Tokens, lib/apis/tokens.ts, and
 * the tenancy kinds, lib/apis/grants.ts) plus
 * the CustomResourceDefinitions stored in it.
 * Registries are cached by the hub that built them (`deps.caches.registries`, registry-cache.ts)
 * for a short time and dropped at once when that hub writes a CRD, so a CRD is served immediately
 * by the hub (process, isolate) that stored it and within the TTL by every other one over the same
 * store (as kube's own "Established" delay, clients that race a new CRD retry or wait for the
 * condition). A hub over another store never sees them. Within one invocation a registry being
 * built is shared: a batch of reconcile runs starting together all missed the cache, and each
 * listed the same CRDs (a mailbox batch of 16 runs: 16 lists). Only within one: workerd does not
 * let a request wait on I/O another request started. The list reads the items only, no counter.
 */
import { GRANT_RESOURCES } from '../apis/grants.ts'
import { TOKEN_INFO } from '../apis/tokens.ts'
import { perInvocation } from '../budget/per-invocation.ts'
import type { Registry } from '../kube/registry.ts'
import { createRegistry } from '../kube/registry.ts'
import type { HubDeps } from './deps.ts'
import type { RegistryCache } from './registry-cache.ts'
import { ROOT } from './spaces.ts'

export const CRD_GROUP = 'apiextensions.k8s.io'

/** Resources only the root space serves: Tokens and the tenancy kinds (admin only). */
const ROOT_ONLY_RESOURCES = [TOKEN_INFO, ...GRANT_RESOURCES]

/** Forgets the cached registry of a space (after a CRD write there). */
export function invalidateRegistry(deps: HubDeps, spaceId: string): void {
  deps.caches.registries.forget(spaceId)
  inFlight(deps)?.delete(spaceId)
}

/** Registries being built in the running invocation, per cache (one per store) and space. */
const building = perInvocation(() => new Map<RegistryCache, Map<string, Promise<Registry>>>())

async function buildRegistry(deps: HubDeps, spaceId: string, now: number): Promise<Registry> {
  const crds = await deps.objects.list({
    cluster: spaceId,
    group: CRD_GROUP,
    resource: 'customresourcedefinitions',
    itemsOnly: true,
  })
  const registry = createRegistry(
    crds.items.filter((c) => !c.metadata.deletionTimestamp),
    spaceId === ROOT.id ? ROOT_ONLY_RESOURCES : []
  )
  deps.caches.registries.set(spaceId, registry, now)
  return registry
}

/** The in-flight builds of the running invocation over `deps`'s cache, if in one. */
function inFlight(deps: HubDeps): Map<string, Promise<Registry>> | undefined {
  const byCache = building()
  if (!byCache) return undefined
  let builds = byCache.get(deps.caches.registries)
  if (!builds) {
    builds = new Map()
    byCache.set(deps.caches.registries, builds)
  }
  return builds
}

export async function registryForSpace(deps: HubDeps, spaceId: string): Promise<Registry> {
  const now = Date.now()
  const hit = deps.caches.registries.get(spaceId, now)
  if (hit) return hit
  const builds = inFlight(deps)
  const shared = builds?.get(spaceId)
  if (shared) return shared
  const built = buildRegistry(deps, spaceId, now)
  if (!builds) return built
  builds.set(spaceId, built)
  // Gone once settled: a later miss (the TTL passed, a CRD written) builds anew.
  const forget = () => {
    if (builds.get(spaceId) === built) builds.delete(spaceId)
  }
  built.then(forget, forget)
  return built
}
