/**
 * Who a desired entry is applied as at the edge. An entry naming the workload spaces it comes from
 * (DesiredEntry.tenants, lib/edge/protocol.ts) is applied as each one's tenant: the ServiceAccount
 * `t-<space id>` of `edgeplane-tenants` (lib/edge/manifests-tenants.ts), impersonated. The space
 * id is the center's logical-cluster id (16 lowercase base36 characters): stable across renames,
 * DNS-safe, and it tells the edge nothing of the tenant's names. An entry without tenants (an
 * older center, or a copy whose origin is unknown) is applied as the agent itself, as before.
 */
import { TENANTS_NAMESPACE } from '../edge/manifests-tenants.ts'

/** The prefix of the RBAC objects the agent keeps for its tenants (tenant-binder.ts). */
export const TENANT_RBAC_PREFIX = 'edgeplane-tenant:'

/** The annotation naming the space id of the tenant a RoleBinding the agent keeps is for. */
export const TENANT_SPACE_ANNOTATION = 'edgeplane.io/tenant-space'

/** The ServiceAccount name of the tenant of workload space `spaceId` (a DNS label). */
export function tenantAccount(spaceId: string): string {
  const safe = spaceId
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .replace(/-+$/, '')
  return `t-${safe}`.slice(0, 63).replace(/-+$/, '')
}

/** The kube user name the agent impersonates for that tenant. */
export const tenantUser = (spaceId: string) =>
  `system:serviceaccount:${TENANTS_NAMESPACE}:${tenantAccount(spaceId)}`

export const tenantsOf = (e: { tenants?: string[] | undefined }): string[] => e.tenants ?? []
