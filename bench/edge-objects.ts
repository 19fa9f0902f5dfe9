/**
 * What a propagation run of the edge phase writes, and its names: per agent count N, an inventory
 * Workspace `bench-edge-inv-N` whose Locations carry `env=bench-edge-N` (set up by
 * fan-out-setup.ts), a workload Workspace `bench-edge-wl-N` with the namespace `edge`, the
 * EdgePlacement sending that namespace to those Locations, and the ConfigMap `prop` whose data
 * carries each timed change's marker. Distinct names per N keep runs (and the fan-out phase's
 * `env=bench` Locations) apart in one hub. Pure builders.
 */
import type { KubeObject } from '../lib/kube/types.ts'
import { configMap } from './payload.ts'

export const EDGE_NAMESPACE = 'edge'
export const EDGE_PLACEMENT = 'bench-edge'
export const PROP_CONFIGMAP = 'prop'
const NS_LABEL = { 'bench.edgeplane.dev/edge': 'yes' }

export const edgeInventory = (agents: number) => `bench-edge-inv-${agents}`
export const edgeWorkload = (agents: number) => `bench-edge-wl-${agents}`
export const edgeEnv = (agents: number) => `bench-edge-${agents}`
/** The marker of timed change `i` of the run with `agents` agents. */
export const changeMarker = (agents: number, i: number) => `n${agents}-change-${i}`

export function edgeNamespace(): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: EDGE_NAMESPACE, labels: NS_LABEL },
  }
}

export function edgePlacement(agents: number): KubeObject {
  return {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'EdgePlacement',
    metadata: { name: EDGE_PLACEMENT },
    spec: {
      locationSelectors: [{ matchLabels: { env: edgeEnv(agents) } }],
      namespaceSelector: { matchLabels: NS_LABEL },
    },
  }
}

/** The ConfigMap `prop` of about `bytes` bytes, carrying `marker` in `data.marker`. */
export function propConfigMap(marker: string, bytes: number): KubeObject {
  const cm = configMap(EDGE_NAMESPACE, PROP_CONFIGMAP, bytes)
  return { ...cm, data: { ...cm.data, marker } } as unknown as KubeObject
}

/** `data.marker` of an edge object, if it is a string. */
export function markerOf(obj: KubeObject): string | undefined {
  const marker = (obj.data as { marker?: unknown } | undefined)?.marker
  return typeof marker === 'string' ? marker : undefined
}
