/**
 * The registries (lib/kube/registry.ts) a hub built recently, per space id: kept `REGISTRY_TTL_MS`
 * and forgotten at once when this hub writes a CRD of the space (space-registry.ts). One cache per
 * hub, created with its store (hub-caches.ts): a registry is built from one store's CRDs and means
 * nothing to a hub over another store. Bounded: past `MAX_CACHED` spaces it starts again empty.
 */
import type { Registry } from '../kube/registry.ts'

export const REGISTRY_TTL_MS = 2000
const MAX_CACHED = 2000

export type RegistryCache = {
  /** The registry of the space built less than REGISTRY_TTL_MS before `now` (ms), if any. */
  get(spaceId: string, now: number): Registry | undefined
  set(spaceId: string, registry: Registry, now: number): void
  forget(spaceId: string): void
}

export function createRegistryCache(): RegistryCache {
  const cache = new Map<string, { at: number; registry: Registry }>()
  return {
    get: (spaceId, now) => {
      const hit = cache.get(spaceId)
      return hit && now - hit.at < REGISTRY_TTL_MS && now >= hit.at ? hit.registry : undefined
    },
    set: (spaceId, registry, now) => {
      if (cache.size >= MAX_CACHED) cache.clear()
      cache.set(spaceId, { at: now, registry })
    },
    forget: (spaceId) => {
      cache.delete(spaceId)
    },
  }
}
