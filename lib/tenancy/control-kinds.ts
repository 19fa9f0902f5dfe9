/**
 * The control kinds: the resources whose objects instruct the control plane rather than describe
 * a workload — placements and their slices, SyncTargets, Locations, Customizers, Summarizers,
 * SyncerConfigs (the whole `edge.kcp.io` group), Workspaces and kcp's other control groups,
 * Tokens, Inventories and PlacementGrants, CustomResourceDefinitions and APIServices (they change
 * what a space serves). A mailbox space and every space below it (`root:espw:<mailbox>:...`) are
 * not control planes: the hub refuses to create these kinds there (lib/hub/mailbox-guard.ts), no
 * upsync set uploads them (lib/upsync/match.ts) and the steps ignore such objects found anywhere
 * under `root:espw` (lib/hub/service-provider-space.ts). Pure.
 */

/** Groups every resource of which is a control kind. */
const CONTROL_GROUPS: ReadonlySet<string> = new Set([
  'edge.kcp.io',
  'tenancy.kcp.io',
  'scheduling.kcp.io',
  'topology.kcp.io',
  'workload.kcp.io',
  'core.kcp.io',
  'apis.kcp.io',
  'apiresource.kcp.io',
  'tenancy.edgeplane.io',
  'auth.edgeplane.io',
])

/** Single resources of other groups that are control kinds (`<group>/<resource>`). */
const CONTROL_RESOURCES: ReadonlySet<string> = new Set([
  'apiextensions.k8s.io/customresourcedefinitions',
  'apiregistration.k8s.io/apiservices',
])

/** Whether objects of `group`/`resource` instruct the control plane (see the header). */
export function isControlResource(group: string, resource: string): boolean {
  return CONTROL_GROUPS.has(group) || CONTROL_RESOURCES.has(`${group}/${resource}`)
}
