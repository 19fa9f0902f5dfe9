/**
 * The group/version/resources the reconcile steps read and write, named once.
 */
import type { GroupVersionResource as Gvr } from '../kube/types.ts'

export const WORKSPACES: Gvr = {
  group: 'tenancy.kcp.io',
  version: 'v1alpha1',
  resource: 'workspaces',
}
export const SYNC_TARGETS: Gvr = {
  group: 'edge.kcp.io',
  version: 'v1alpha1',
  resource: 'synctargets',
}
export const LOCATIONS: Gvr = { group: 'edge.kcp.io', version: 'v1alpha1', resource: 'locations' }
export const EDGE_PLACEMENTS: Gvr = {
  group: 'edge.kcp.io',
  version: 'v1alpha1',
  resource: 'edgeplacements',
}
export const PLACEMENT_SLICES: Gvr = {
  group: 'edge.kcp.io',
  version: 'v1alpha1',
  resource: 'singleplacementslices',
}
export const ROLLOUTS: Gvr = { group: 'edge.kcp.io', version: 'v1alpha1', resource: 'rollouts' }
export const CUSTOMIZERS: Gvr = {
  group: 'edge.kcp.io',
  version: 'v1alpha1',
  resource: 'customizers',
}
export const SUMMARIZERS: Gvr = {
  group: 'edge.kcp.io',
  version: 'v1alpha1',
  resource: 'summarizers',
}
export const STATUS_SUMMARIES: Gvr = {
  group: 'edge.kcp.io',
  version: 'v1alpha1',
  resource: 'statussummaries',
}
export const SYNCER_CONFIGS: Gvr = {
  group: 'edge.kcp.io',
  version: 'v1alpha1',
  resource: 'syncerconfigs',
}

/** The edge service provider space: mailboxes are its child workspaces. */
export const ESPW = 'root:espw'
/** Annotation on a mailbox Workspace naming its SyncTarget. */
export const SYNC_TARGET_NAME_ANNOTATION = 'edge.kcp.io/sync-target-name'

export const INVENTORIES: Gvr = {
  group: 'tenancy.edgeplane.io',
  version: 'v1alpha1',
  resource: 'inventories',
}
export const PLACEMENT_GRANTS: Gvr = {
  group: 'tenancy.edgeplane.io',
  version: 'v1alpha1',
  resource: 'placementgrants',
}
export const SPACE_QUOTAS: Gvr = {
  group: 'tenancy.edgeplane.io',
  version: 'v1alpha1',
  resource: 'spacequotas',
}
