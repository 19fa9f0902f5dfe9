/**
 * Where-step keys: `<workload-space-id>/<edgeplacement-name>`. The space id is the logical-cluster
 * id from an object's `kcp.io/cluster` annotation, so a key names one EdgePlacement and its
 * SinglePlacementSlice (same name, same space) no matter how the space is later renamed.
 */
import { CLUSTER_ANNOTATION, type KubeObject } from '../../lib/kube/types.ts'

const KEY_RE = /^([a-z0-9]+)\/([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)$/

export function whereKey(spaceId: string, name: string): string {
  return `${spaceId}/${name}`
}

/** The key of an EdgePlacement or SinglePlacementSlice, from its cluster annotation and name. */
export function whereKeyOf(obj: KubeObject): string | undefined {
  const cluster = obj.metadata.annotations?.[CLUSTER_ANNOTATION]
  const name = obj.metadata.name
  return cluster && name ? whereKey(cluster, name) : undefined
}

export function parseWhereKey(key: string): { spaceId: string; name: string } | undefined {
  const m = KEY_RE.exec(key)
  return m?.[1] && m[2] && m[2].length <= 253 ? { spaceId: m[1], name: m[2] } : undefined
}
