/**
 * Resources every space has beyond Kubernetes' own: kcp's `tenancy.kcp.io` (Workspaces, which
 * create child spaces, and WorkspaceTypes) and `apis.kcp.io` (APIBindings, APIExports), and the
 * edge API `edge.kcp.io/v1alpha1` of KubeStellar's 2023 PoC (plus edgeplane's Rollout, which
 * stages the changes of a workload space's objects through waves of edges). All are cluster-scoped except
 * Customizer, Summarizer and StatusSummary. SinglePlacementSlice, Customizer, Summarizer and
 * StatusSummary have no status subresource (no status at all: a StatusSummary's results are its
 * top-level `summary`, written by the summarize step).
 */
import { type BuiltinSpec, builtinResource, type ResourceInfo } from './resource-info.ts'

type Spec = Omit<BuiltinSpec, 'group' | 'versions' | 'namespaced'> & { namespaced?: boolean }
const inGroup = (group: string) => (spec: Spec) =>
  builtinResource({ group, versions: ['v1alpha1'], namespaced: false, ...spec })

const tenancy = inGroup('tenancy.kcp.io')
const apis = inGroup('apis.kcp.io')
const edge = inGroup('edge.kcp.io')

export const EDGE_GROUP = 'edge.kcp.io'

export const KCP_RESOURCES: ResourceInfo[] = [
  tenancy({ resource: 'workspaces', kind: 'Workspace', shortNames: ['ws'], status: true }),
  tenancy({ resource: 'workspacetypes', kind: 'WorkspaceType', status: true }),
  apis({ resource: 'apibindings', kind: 'APIBinding', status: true }),
  apis({ resource: 'apiexports', kind: 'APIExport', status: true }),
  edge({ resource: 'synctargets', kind: 'SyncTarget', status: true }),
  edge({ resource: 'locations', kind: 'Location', status: true }),
  edge({ resource: 'edgeplacements', kind: 'EdgePlacement', shortNames: ['epl'], status: true }),
  edge({ resource: 'rollouts', kind: 'Rollout', status: true }),
  edge({ resource: 'singleplacementslices', kind: 'SinglePlacementSlice', shortNames: ['sps'] }),
  edge({ resource: 'syncerconfigs', kind: 'SyncerConfig', shortNames: ['escfg'], status: true }),
  edge({ resource: 'customizers', kind: 'Customizer', namespaced: true }),
  edge({ resource: 'summarizers', kind: 'Summarizer', namespaced: true }),
  edge({ resource: 'statussummaries', kind: 'StatusSummary', namespaced: true }),
]
