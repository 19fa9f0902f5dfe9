/**
 * The edge agent's RBAC (part of the bootstrap manifests, manifests.ts). Cluster-wide, the agent
 * reads discovery and manages the kinds its mailbox downsyncs and its SyncerConfig upsyncs. Those
 * kinds are not known when the edge is bootstrapped: they are whatever the workload placements
 * select later, including custom resources of CRDs that arrive with the workload, and upsync sets
 * name any group and resource. RBAC has no "whatever arrives later" and no deny rule, so the rule
 * for objects is `*` on apiGroups and resources — the same reach KubeStellar's syncer gets — and
 * the narrowing is by verb: the ordinary object verbs only. Not granted: `escalate`, `bind`,
 * `impersonate` (so the agent can create Roles and bindings only for permissions it holds itself,
 * and cannot act as someone else), `deletecollection` (it deletes one object it owns at a time),
 * `approve`/`sign` on certificate requests, `use`. Note that `*` on resources includes
 * subresources, so `create` covers e.g. `pods/exec` and `serviceaccounts/token`: whoever controls
 * the workload placements is trusted with the edge cluster, as in KubeStellar. In its own namespace
 * the Role states what the agent needs for itself (the ConfigMaps of its ownership record, which
 * it lists, creates and updates — lib/edge-agent/owned-keeper.ts; Secrets; events), so the
 * agent keeps working when an operator narrows the ClusterRole to the kinds they actually place.
 */
import type { KubeObject } from '../kube/types.ts'

export const OBJECT_VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']
export const DISCOVERY_URLS = ['/api', '/api/*', '/apis', '/apis/*', '/version']

export type RbacOptions = { name: string; namespace: string; labels: Record<string, string> }

export function agentRbac(o: RbacOptions): KubeObject[] {
  const subject = { kind: 'ServiceAccount', name: o.name, namespace: o.namespace }
  const rbac = 'rbac.authorization.k8s.io'
  return [
    {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRole',
      metadata: { name: o.name, labels: o.labels },
      rules: [
        { nonResourceURLs: DISCOVERY_URLS, verbs: ['get'] },
        { apiGroups: ['*'], resources: ['*'], verbs: OBJECT_VERBS },
      ],
    },
    {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: o.name, labels: o.labels },
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: o.name },
      subjects: [subject],
    },
    {
      apiVersion: `${rbac}/v1`,
      kind: 'Role',
      metadata: { name: o.name, namespace: o.namespace, labels: o.labels },
      rules: [
        { apiGroups: [''], resources: ['configmaps', 'secrets'], verbs: OBJECT_VERBS },
        { apiGroups: ['', 'events.k8s.io'], resources: ['events'], verbs: ['create', 'patch'] },
      ],
    },
    {
      apiVersion: `${rbac}/v1`,
      kind: 'RoleBinding',
      metadata: { name: o.name, namespace: o.namespace, labels: o.labels },
      roleRef: { apiGroup: rbac, kind: 'Role', name: o.name },
      subjects: [subject],
    },
  ] as unknown as KubeObject[]
}
