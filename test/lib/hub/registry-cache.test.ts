/**
 * A hub's registry cache: an entry is trusted for REGISTRY_TTL_MS after it was built (not before,
 * should the clock step back), forgetting a space drops only that space, and two caches never
 * share an entry.
 */
import { describe, expect, it } from 'vitest'
import { createRegistryCache, REGISTRY_TTL_MS } from '../../../lib/hub/registry-cache.ts'
import { createRegistry } from '../../../lib/kube/registry.ts'

const T = 1_000_000

describe('createRegistryCache', () => {
  it('keeps a registry for REGISTRY_TTL_MS and forgets one space on demand', () => {
    const cache = createRegistryCache()
    const registry = createRegistry([])
    cache.set('s1', registry, T)
    cache.set('s2', registry, T)
    expect(cache.get('s1', T + REGISTRY_TTL_MS - 1)).toBe(registry)
    expect(cache.get('s1', T + REGISTRY_TTL_MS)).toBeUndefined()
    expect(cache.get('s1', T - 1)).toBeUndefined()
    cache.forget('s1')
    expect(cache.get('s1', T)).toBeUndefined()
    expect(cache.get('s2', T)).toBe(registry)
  })

  it('is one per hub: another cache has nothing of it', () => {
    const one = createRegistryCache()
    const two = createRegistryCache()
    one.set('root', createRegistry([]), T)
    expect(two.get('root', T)).toBeUndefined()
  })
})
