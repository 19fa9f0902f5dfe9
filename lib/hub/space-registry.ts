/**
 * The resources a space serves: the built-ins plus the CustomResourceDefinitions stored in it.
 * Read fresh on every call (one query), so a CRD created by any isolate is served at once.
 */
import type { Registry } from '../kube/registry.ts'
import { createRegistry } from '../kube/registry.ts'
import type { HubDeps } from './deps.ts'

export async function registryForSpace(deps: HubDeps, spaceId: string): Promise<Registry> {
  const crds = await deps.objects.list({
    cluster: spaceId,
    group: 'apiextensions.k8s.io',
    resource: 'customresourcedefinitions',
  })
  return createRegistry(crds.items.filter((c) => !c.metadata.deletionTimestamp))
}
