/**
 * The tenant identities' part of the bootstrap manifests (manifests.ts): the namespace
 * `edgeplane-tenants`, where the agent keeps one ServiceAccount per workload space it applies for
 * (lib/edge-agent/tenant-binder.ts), and the agent's right to impersonate the ServiceAccounts of
 * that namespace — a Role there, so it can act as its tenants and as nobody else (no user, no
 * group, no account of another namespace). The agent's ClusterRole holds no `impersonate`
 * (manifests-rbac.ts), and RBAC's escalation check keeps the agent from granting it to itself.
 */
import type { KubeObject } from '../kube/types.ts'

export const TENANTS_NAMESPACE = 'edgeplane-tenants'
/** The name of the Role and RoleBinding giving the agent `impersonate` in TENANTS_NAMESPACE. */
export const IMPERSONATOR_NAME = 'edgeplane-agent-impersonate'

export type TenantManifestOptions = {
  agentName: string
  agentNamespace: string
  labels: Record<string, string>
}

export function tenantManifests(o: TenantManifestOptions): KubeObject[] {
  const rbac = 'rbac.authorization.k8s.io'
  const meta = (name: string) => ({ name, namespace: TENANTS_NAMESPACE, labels: o.labels })
  return [
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: TENANTS_NAMESPACE, labels: o.labels },
    },
    {
      apiVersion: `${rbac}/v1`,
      kind: 'Role',
      metadata: meta(IMPERSONATOR_NAME),
      rules: [{ apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] }],
    },
    {
      apiVersion: `${rbac}/v1`,
      kind: 'RoleBinding',
      metadata: meta(IMPERSONATOR_NAME),
      roleRef: { apiGroup: rbac, kind: 'Role', name: IMPERSONATOR_NAME },
      subjects: [{ kind: 'ServiceAccount', name: o.agentName, namespace: o.agentNamespace }],
    },
  ] as unknown as KubeObject[]
}
