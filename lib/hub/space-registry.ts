/**
 * The resources a space serves: the built-ins (root also serves Tokens, lib/apis/tokens.ts) plus
 * the CustomResourceDefinitions stored in it.
 * Registries are cached per process/isolate for a short time (`REGISTRY_TTL_MS`) and dropped at once
 * when this process writes a CRD, so a CRD is served immediately by the isolate that stored it and
 * within the TTL by every other one (as kube's own "Established" delay, clients that race a new CRD
 * retry or wait for the condition).
 */
import { ROOT_ONLY_RESOURCES } from '../apis/tokens.ts'
import type { Registry } from '../kube/registry.ts'
import { createRegistry } from '../kube/registry.ts'
import type { HubDeps } from './deps.ts'
import { ROOT } from './spaces.ts'

export const REGISTRY_TTL_MS = 2000
const MAX_CACHED = 2000
const cache = new Map<string, { at: number; registry: Registry }>()

export const CRD_GROUP = 'apiextensions.k8s.io'

/** Forgets the cached registry of a space (after a CRD write there). */
export function invalidateRegistry(spaceId: string): void {
  cache.delete(spaceId)
}

export async function registryForSpace(deps: HubDeps, spaceId: string): Promise<Registry> {
  const now = Date.now()
  const hit = cache.get(spaceId)
  if (hit && now - hit.at < REGISTRY_TTL_MS) return hit.registry
  const crds = await deps.objects.list({
    cluster: spaceId,
    group: CRD_GROUP,
    resource: 'customresourcedefinitions',
  })
  const registry = createRegistry(
    crds.items.filter((c) => !c.metadata.deletionTimestamp),
    spaceId === ROOT.id ? ROOT_ONLY_RESOURCES : []
  )
  if (cache.size >= MAX_CACHED) cache.clear()
  cache.set(spaceId, { at: now, registry })
  return registry
}
