/**
 * RBAC policies for the authorizer's tests, built from plain Role, ClusterRole and binding objects
 * through the same decoding the hub uses (lib/rbac/rbac-objects.ts).
 */
import type { KubeObject } from '../../../lib/kube/types.ts'
import { policyOf } from '../../../lib/rbac/rbac-objects.ts'
import type { PolicyRule, RbacPolicy, Subject } from '../../../lib/rbac/types.ts'

const RBAC = 'rbac.authorization.k8s.io/v1'
const obj = (o: Record<string, unknown>) => o as unknown as KubeObject

export const clusterRole = (name: string, rules: PolicyRule[]) =>
  obj({ apiVersion: RBAC, kind: 'ClusterRole', metadata: { name }, rules })

export const role = (namespace: string, name: string, rules: PolicyRule[]) =>
  obj({ apiVersion: RBAC, kind: 'Role', metadata: { name, namespace }, rules })

export const clusterRoleBinding = (name: string, roleName: string, subjects: Subject[]) =>
  obj({
    apiVersion: RBAC,
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
    subjects,
  })

export const roleBinding = (
  namespace: string,
  name: string,
  roleRef: { kind: 'Role' | 'ClusterRole'; name: string },
  subjects: Subject[]
) =>
  obj({
    apiVersion: RBAC,
    kind: 'RoleBinding',
    metadata: { name, namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...roleRef },
    subjects,
  })

export function policy(objects: KubeObject[]): RbacPolicy {
  const of = (kind: string) => objects.filter((o) => o.kind === kind)
  return policyOf({
    clusterRoles: of('ClusterRole'),
    roles: of('Role'),
    clusterRoleBindings: of('ClusterRoleBinding'),
    roleBindings: of('RoleBinding'),
  })
}

export const user = (name: string, ...groups: string[]) => ({
  name,
  groups: [...groups, 'system:authenticated'],
})
