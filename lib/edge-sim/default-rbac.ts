/**
 * The ClusterRoles and ClusterRoleBindings kube-apiserver creates at start
 * (plugin/pkg/auth/authorizer/rbac/bootstrappolicy) that a simulated edge needs for its RBAC to
 * behave as a fresh cluster's: `cluster-admin` (everything, bound to `system:masters`),
 * `system:discovery` and `system:public-info-viewer` (discovery, OpenAPI, version and health
 * paths) and `system:basic-user` (the self reviews), the last three bound to
 * `system:authenticated`. kube's aggregated `admin`/`edit`/`view` roles are not among them (the
 * aggregation controller does not run here).
 */
import type { KubeObject } from '../kube/types.ts'

const RBAC = 'rbac.authorization.k8s.io'
const API_VERSION = `${RBAC}/v1`
const LABELS = { 'kubernetes.io/bootstrapping': 'rbac-defaults' }
const ANNOTATIONS = { 'rbac.authorization.kubernetes.io/autoupdate': 'true' }

const role = (name: string, rules: unknown[]): KubeObject =>
  ({
    apiVersion: API_VERSION,
    kind: 'ClusterRole',
    metadata: { name, labels: LABELS, annotations: ANNOTATIONS },
    rules,
  }) as unknown as KubeObject

const binding = (name: string, groups: string[]): KubeObject =>
  ({
    apiVersion: API_VERSION,
    kind: 'ClusterRoleBinding',
    metadata: { name, labels: LABELS, annotations: ANNOTATIONS },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name },
    subjects: groups.map((g) => ({ apiGroup: RBAC, kind: 'Group', name: g })),
  }) as unknown as KubeObject

const HEALTH = ['/healthz', '/livez', '/readyz', '/version', '/version/']

export function defaultClusterRoles(): KubeObject[] {
  return [
    role('cluster-admin', [
      { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      { nonResourceURLs: ['*'], verbs: ['*'] },
    ]),
    role('system:discovery', [
      {
        nonResourceURLs: [
          '/api',
          '/api/*',
          '/apis',
          '/apis/*',
          '/openapi',
          '/openapi/*',
          ...HEALTH,
        ],
        verbs: ['get'],
      },
    ]),
    role('system:public-info-viewer', [{ nonResourceURLs: HEALTH, verbs: ['get'] }]),
    role('system:basic-user', [
      {
        apiGroups: ['authorization.k8s.io'],
        resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
        verbs: ['create'],
      },
      {
        apiGroups: ['authentication.k8s.io'],
        resources: ['selfsubjectreviews'],
        verbs: ['create'],
      },
    ]),
  ]
}

export function defaultClusterRoleBindings(): KubeObject[] {
  return [
    binding('cluster-admin', ['system:masters']),
    binding('system:discovery', ['system:authenticated']),
    binding('system:public-info-viewer', ['system:authenticated', 'system:unauthenticated']),
    binding('system:basic-user', ['system:authenticated']),
  ]
}
