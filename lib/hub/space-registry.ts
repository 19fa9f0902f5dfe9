/**
 * The resources a space serves: the built-ins (root also serves Tokens, lib/apis/tokens.ts) plus
 * the CustomResourceDefinitions stored in it.
 * Registries are cached by the hub that built them (`deps.caches.registries`, registry-cache.ts)
 * for a short time and dropped at once when that hub writes a CRD, so a CRD is served immediately
 * by the hub (process, isolate) that stored it and within the TTL by every other one over the same
 * store (as kube's own "Established" delay, clients that race a new CRD retry or wait for the
 * condition). A hub over another store never sees them.
 */
import { ROOT_ONLY_RESOURCES } from '../apis/tokens.ts'
import type { Registry } from '../kube/registry.ts'
import { createRegistry } from '../kube/registry.ts'
import type { HubDeps } from './deps.ts'
import { ROOT } from './spaces.ts'

export const CRD_GROUP = 'apiextensions.k8s.io'

/** Forgets the cached registry of a space (after a CRD write there). */
export function invalidateRegistry(deps: HubDeps, spaceId: string): void {
  deps.caches.registries.forget(spaceId)
}

export async function registryForSpace(deps: HubDeps, spaceId: string): Promise<Registry> {
  const now = Date.now()
  const hit = deps.caches.registries.get(spaceId, now)
  if (hit) return hit
  const crds = await deps.objects.list({
    cluster: spaceId,
    group: CRD_GROUP,
    resource: 'customresourcedefinitions',
  })
  const registry = createRegistry(
    crds.items.filter((c) => !c.metadata.deletionTimestamp),
    spaceId === ROOT.id ? ROOT_ONLY_RESOURCES : []
  )
  deps.caches.registries.set(spaceId, registry, now)
  return registry
}
