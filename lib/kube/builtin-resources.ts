/**
 * Every built-in resource of a space, in kube's discovery order of groups (core first, then the
 * Kubernetes groups in the order a real API server lists them, then kcp's and the edge group).
 * kubectl uses this order to break ties between resources of the same name in several groups.
 */
import { WORKLOAD_RESOURCES } from './builtin-resources-apps.ts'
import { CORE_RESOURCES } from './builtin-resources-core.ts'
import { KCP_RESOURCES } from './builtin-resources-kcp.ts'
import { PLATFORM_RESOURCES } from './builtin-resources-platform.ts'
import type { ResourceInfo } from './resource-info.ts'

/** Group order of a kube API server's `/apis`, followed by the kcp and edge groups. */
export const BUILTIN_GROUP_ORDER = [
  '',
  'apiregistration.k8s.io',
  'apps',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'events.k8s.io',
  'autoscaling',
  'batch',
  'networking.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'storage.k8s.io',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'scheduling.k8s.io',
  'coordination.k8s.io',
  'node.k8s.io',
  'discovery.k8s.io',
  'flowcontrol.apiserver.k8s.io',
  'tenancy.kcp.io',
  'apis.kcp.io',
  'edge.kcp.io',
]

const groupRank = (group: string) => {
  const i = BUILTIN_GROUP_ORDER.indexOf(group)
  return i < 0 ? BUILTIN_GROUP_ORDER.length : i
}

export const BUILTIN_RESOURCES: readonly ResourceInfo[] = [
  ...CORE_RESOURCES,
  ...WORKLOAD_RESOURCES,
  ...PLATFORM_RESOURCES,
  ...KCP_RESOURCES,
].sort((a, b) => groupRank(a.group) - groupRank(b.group) || a.resource.localeCompare(b.resource))
