/**
 * What the fan-out phase writes, and the names it uses: the inventory Workspace with one SyncTarget
 * and one Location per destination (the Location selects exactly its SyncTarget, all Locations
 * carry `env=bench`), the workload Workspace with the namespace `fan` and its ConfigMaps, and the
 * EdgePlacement that sends that namespace to every `env=bench` Location. Pure builders, plus the
 * URL paths they are posted to.
 */
import type { KubeObject } from '../lib/kube/types.ts'

export const INVENTORY_WS = 'bench-inv'
export const WORKLOAD_WS = 'bench-wl'
export const FAN_NAMESPACE = 'fan'
export const PLACEMENT = 'bench-fan'
export const NS_LABEL = { 'bench.edgeplane.dev/fan-out': 'yes' }
const EDGE = 'edge.kcp.io/v1alpha1'

/** `st-0001`: zero-padded so names sort in creation order. */
export function targetName(i: number, count: number): string {
  return `st-${String(i).padStart(String(Math.max(1, count - 1)).length, '0')}`
}

export const workspacesPath = (space: string) =>
  `/clusters/${space}/apis/tenancy.kcp.io/v1alpha1/workspaces`
export const edgePath = (space: string, resource: string) =>
  `/clusters/${space}/apis/edge.kcp.io/v1alpha1/${resource}`
export const namespacesPath = (space: string) => `/clusters/${space}/api/v1/namespaces`
export const configMapsPath = (space: string, namespace: string) =>
  `/clusters/${space}/api/v1/namespaces/${namespace}/configmaps`

export function workspace(name: string): KubeObject {
  return { apiVersion: 'tenancy.kcp.io/v1alpha1', kind: 'Workspace', metadata: { name } }
}

export function syncTarget(name: string): KubeObject {
  return { apiVersion: EDGE, kind: 'SyncTarget', metadata: { name, labels: { id: name } } }
}

/** A Location selecting exactly SyncTarget `name`, labelled `env=<env>` (default `bench`). */
export function location(name: string, env = 'bench'): KubeObject {
  return {
    apiVersion: EDGE,
    kind: 'Location',
    metadata: { name, labels: { env, id: name } },
    spec: {
      resource: { group: 'edge.kcp.io', version: 'v1alpha1', resource: 'synctargets' },
      instanceSelector: { matchLabels: { id: name } },
    },
  }
}

export function fanNamespace(): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: FAN_NAMESPACE, labels: NS_LABEL },
  }
}

export function edgePlacement(): KubeObject {
  return {
    apiVersion: EDGE,
    kind: 'EdgePlacement',
    metadata: { name: PLACEMENT },
    spec: {
      locationSelectors: [{ matchLabels: { env: 'bench' } }],
      namespaceSelector: { matchLabels: NS_LABEL },
    },
  }
}

/** `list` cut into consecutive slices of at most `size`. */
export function chunks<T>(list: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`bad chunk size ${size}`)
  const out: T[][] = []
  for (let at = 0; at < list.length; at += size) out.push(list.slice(at, at + size))
  return out
}
