/**
 * kube's declared defaults of a Service and a Secret (pkg/apis/core/v1 defaults.go,
 * SetDefaults_Service and _Secret): sessionAffinity None (ClientIP gets a 10800 s timeout), type
 * ClusterIP, each port's protocol TCP and targetPort its port, externalTrafficPolicy Cluster for a
 * Service reachable from outside (NodePort, LoadBalancer, or externalIPs), internalTrafficPolicy
 * Cluster (but ExternalName), allocateLoadBalancerNodePorts for a LoadBalancer; a Secret's type
 * Opaque. What the Service registry allocates (clusterIP, clusterIPs, IP families, nodePorts) is
 * not a default: only a cluster that routes traffic has addresses to give (a simulated edge
 * allocates them, lib/edge-sim/defaults-service.ts).
 */
import { constant, items, member, type Node, type Scope } from './scopes.ts'

const ROUTED = new Set(['ClusterIP', 'NodePort', 'LoadBalancer'])

function reachableFromOutside(spec: Node): boolean {
  if (spec.type === 'NodePort' || spec.type === 'LoadBalancer') return true
  return spec.type === 'ClusterIP' && Array.isArray(spec.externalIPs) && spec.externalIPs.length > 0
}

const CLIENT_IP_TIMEOUT_SECONDS = 10800

export const SERVICE: readonly Scope[] = [
  {
    nodes: member('spec'),
    rules: [
      constant('sessionAffinity', 'None'),
      {
        key: 'sessionAffinityConfig',
        value: (s) =>
          s.sessionAffinity === 'ClientIP'
            ? { clientIP: { timeoutSeconds: CLIENT_IP_TIMEOUT_SECONDS } }
            : undefined,
      },
      constant('type', 'ClusterIP'),
      {
        key: 'externalTrafficPolicy',
        value: (s) => (reachableFromOutside(s) ? 'Cluster' : undefined),
      },
      {
        key: 'internalTrafficPolicy',
        value: (s) => (typeof s.type === 'string' && ROUTED.has(s.type) ? 'Cluster' : undefined),
      },
      {
        key: 'allocateLoadBalancerNodePorts',
        value: (s) => (s.type === 'LoadBalancer' ? true : undefined),
      },
    ],
    inner: [
      {
        nodes: items('ports'),
        rules: [
          constant('protocol', 'TCP'),
          { key: 'targetPort', value: (p) => p.port, zeroUnset: true },
        ],
      },
    ],
  },
]

export const SECRET: readonly Scope[] = [
  { nodes: (obj) => [obj], rules: [constant('type', 'Opaque')] },
]
