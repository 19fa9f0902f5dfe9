/**
 * The object categories of KubeStellar's outline (reference §2.8), as ONE table that the placement
 * translator (and later the edge agent) consult: which group/resources go to the edge as they are,
 * which are natured in both places (CRDs and Namespaces: applied first, deleted last), which stay
 * in the mailbox (APIBindings), which are an error to place (reported), and which are tolerated in
 * the center but never propagated. The outline's "forcibly denatured" kinds (RBAC, webhook
 * configurations, quotas, limit ranges, service accounts, flow control) are plain 'to-edge' here:
 * the hub gives them no behaviour (it enforces no RBAC, calls no webhook, admits against no quota
 * or limit range, mints no token, schedules no request), so in the center they already are the
 * inert data the outline wanted denaturing to produce, and the edge cluster gives them life. Also
 * the "system infrastructure" objects every cluster makes for itself, which never travel.
 */
import { EDGE_GROUP } from '../kube/builtin-resources-kcp.ts'
import type { KubeObject } from '../kube/types.ts'

export { EDGE_GROUP }

export type Category = 'to-edge' | 'natured-both' | 'mailbox-only' | 'unsupported' | 'not-for-edge'

/**
 * Whole API groups that never leave the center: the edge API itself (EdgePlacements, Customizers,
 * SyncerConfigs... are instructions to the center), kcp's scheduling/tenancy/topology/workload
 * control planes and core.kcp.io (LogicalClusters, Shards), and the review APIs of
 * authentication.k8s.io and authorization.k8s.io, which are create-only questions answered from
 * the asker's credentials and never stored (TokenReview, SelfSubjectReview, the
 * *AccessReviews and SelfSubjectRulesReview): there is nothing to propagate.
 */
const GROUPS_NOT_FOR_EDGE: ReadonlySet<string> = new Set([
  EDGE_GROUP,
  'scheduling.kcp.io',
  'tenancy.kcp.io',
  'topology.kcp.io',
  'workload.kcp.io',
  'core.kcp.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
  // edgeplane's Tokens (root only): credentials of the center, never an edge's business.
  'auth.edgeplane.io',
  // edgeplane's tenancy policy (Inventories, PlacementGrants, SpaceQuotas; root only): the
  // administrator's lines between tenants, read by the center's steps, never placed.
  'tenancy.edgeplane.io',
])

const gr = (group: string, resource: string) => `${group}/${resource}`

/** Per group/resource exceptions to the default 'to-edge'. */
const BY_GROUP_RESOURCE: ReadonlyMap<string, Category> = new Map<string, Category>([
  // Natured in both: they define things (resources, a scope) the other objects need.
  [gr('apiextensions.k8s.io', 'customresourcedefinitions'), 'natured-both'],
  [gr('', 'namespaces'), 'natured-both'],
  // The mailbox gets its resource definitions through APIBindings; edge clusters have no such kind.
  [gr('apis.kcp.io', 'apibindings'), 'mailbox-only'],
  // An error to place: they would change the API surface of the center itself.
  [gr('apiregistration.k8s.io', 'apiservices'), 'unsupported'],
  [gr('apiresource.kcp.io', 'apiresourceimports'), 'unsupported'],
  [gr('apiresource.kcp.io', 'negotiatedapiresources'), 'unsupported'],
  [gr('apis.kcp.io', 'apiconversions'), 'unsupported'],
  // kcp's API publishing machinery: meaningful only in kcp.
  [gr('apis.kcp.io', 'apiexports'), 'not-for-edge'],
  [gr('apis.kcp.io', 'apiexportendpointslices'), 'not-for-edge'],
  [gr('apis.kcp.io', 'apiresourceschemas'), 'not-for-edge'],
  // History written by each cluster's DaemonSet/StatefulSet controllers for their own rollouts.
  [gr('apps', 'controllerrevisions'), 'not-for-edge'],
  // Requests answered by each cluster's signers and approvers, for that cluster's CA.
  [gr('certificates.k8s.io', 'certificatesigningrequests'), 'not-for-edge'],
  // Reports of what happened in one cluster; a copy elsewhere would be a false report.
  [gr('', 'events'), 'not-for-edge'],
  [gr('events.k8s.io', 'events'), 'not-for-edge'],
  // Binding is a pod-to-node instruction of a scheduler; ComponentStatus and Node describe one
  // cluster's own control plane and machines.
  [gr('', 'bindings'), 'not-for-edge'],
  [gr('', 'componentstatuses'), 'not-for-edge'],
  [gr('', 'nodes'), 'not-for-edge'],
  // Leases are heartbeats and leader locks (kube-node-lease, controller election): each is renewed
  // by a live process of one cluster every few seconds, so a copy pushed from the center would
  // either be overwritten at once or, worse, make a dead node or a departed leader look alive.
  [gr('coordination.k8s.io', 'leases'), 'not-for-edge'],
  // Endpoints and EndpointSlices are derived by each cluster's endpoint controllers from that
  // cluster's own Services and Pod IPs. A copy from the center would fight those controllers for
  // Services with selectors, and the addresses it carries (pod IPs of some cluster) mean nothing
  // in another; selector-less Services whose endpoints a user wrote by hand are per-network too.
  // Cross-cluster backends are better expressed by an ExternalName Service, which does travel.
  [gr('', 'endpoints'), 'not-for-edge'],
  [gr('discovery.k8s.io', 'endpointslices'), 'not-for-edge'],
  // storage.k8s.io objects written by each cluster's kubelets, attach/detach controller and CSI
  // drivers about their own nodes and volumes (StorageClasses and CSIDrivers, which an admin
  // writes, do travel).
  [gr('storage.k8s.io', 'csinodes'), 'not-for-edge'],
  [gr('storage.k8s.io', 'volumeattachments'), 'not-for-edge'],
  [gr('storage.k8s.io', 'csistoragecapacities'), 'not-for-edge'],
])

/** The category of a group/resource ('' is the core group); everything unlisted goes to the edge. */
export function categoryOf(group: string, resource: string): Category {
  if (GROUPS_NOT_FOR_EDGE.has(group)) return 'not-for-edge'
  return BY_GROUP_RESOURCE.get(gr(group, resource)) ?? 'to-edge'
}

/** Secret types minted by a cluster for itself (ServiceAccount tokens, bootstrap tokens). */
const SYSTEM_SECRET_TYPES: ReadonlySet<string> = new Set([
  'kubernetes.io/service-account-token',
  'bootstrap.kubernetes.io/token',
])

/**
 * True for the objects every cluster creates in each namespace for itself and that therefore never
 * travel: token Secrets (ServiceAccount and bootstrap), the `kube-root-ca.crt` ConfigMap (that
 * cluster's CA) and the `default` ServiceAccount.
 */
export function isSystemInfrastructure(group: string, resource: string, obj: KubeObject): boolean {
  if (group !== '') return false
  const name = obj.metadata?.name
  switch (resource) {
    case 'secrets':
      return typeof obj.type === 'string' && SYSTEM_SECRET_TYPES.has(obj.type)
    case 'configmaps':
      return name === 'kube-root-ca.crt'
    case 'serviceaccounts':
      return name === 'default'
    default:
      return false
  }
}
