/**
 * Reads the RBAC policy of an edge cluster (its `root` space) from the hub's store, through the
 * hub's RBAC cache (rbac-cache.ts): four listings when an RBAC object changed since the last read,
 * none otherwise, so authorizing a request costs no store read in the common case.
 */
import type { HubDeps } from '../hub/deps.ts'
import { ROOT } from '../hub/spaces.ts'
import { policyOf, RBAC_GROUP } from './rbac-objects.ts'
import type { RbacPolicy } from './types.ts'

async function all(deps: HubDeps, resource: string) {
  const res = await deps.objects.list({
    cluster: ROOT.id,
    group: RBAC_GROUP,
    resource,
    itemsOnly: true,
  })
  return res.items
}

export async function loadRbacPolicy(deps: HubDeps): Promise<RbacPolicy> {
  const cache = deps.caches.rbac
  const cached = cache.get()
  if (cached) return cached
  const generation = cache.generation()
  const [clusterRoles, roles, clusterRoleBindings, roleBindings] = await Promise.all([
    all(deps, 'clusterroles'),
    all(deps, 'roles'),
    all(deps, 'clusterrolebindings'),
    all(deps, 'rolebindings'),
  ])
  const policy = policyOf({ clusterRoles, roles, clusterRoleBindings, roleBindings })
  cache.set(policy, generation)
  return policy
}
