/**
 * Deployment helpers after kube's deploymentutil: the revision and pod-template-hash of a
 * ReplicaSet, maxSurge/maxUnavailable resolved against the replica count (percentages round up for
 * surge, down for unavailable; both zero means one unavailable), the annotations a Deployment's
 * ReplicaSet carries (the Deployment's own, copied as kube does, plus revision, desired-replicas
 * and max-replicas), and the new ReplicaSet for a template hash.
 */
import type { KubeObject } from '../kube/types.ts'
import { POD_TEMPLATE_HASH } from './hash.ts'
import { isObj, num, type Obj, peek, specOf, str } from './json.ts'
import { ownerRef } from './sim-context.ts'

export const REVISION = 'deployment.kubernetes.io/revision'
export const DESIRED_REPLICAS = 'deployment.kubernetes.io/desired-replicas'
export const MAX_REPLICAS = 'deployment.kubernetes.io/max-replicas'
const NOT_COPIED = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION,
  'deployment.kubernetes.io/revision-history',
  DESIRED_REPLICAS,
  MAX_REPLICAS,
])

export const revisionOf = (rs: KubeObject) => Number(rs.metadata.annotations?.[REVISION] ?? 0) || 0
export const hashLabelOf = (rs: KubeObject) => rs.metadata.labels?.[POD_TEMPLATE_HASH]

/** An int-or-percent field resolved against `total`. */
export function resolveIntOrPercent(v: unknown, total: number, roundUp: boolean): number {
  if (typeof v === 'number') return v
  if (typeof v !== 'string') return 0
  const pct = /^(\d+)%$/.exec(v)
  if (pct) {
    const exact = (Number(pct[1]) * total) / 100
    return roundUp ? Math.ceil(exact) : Math.floor(exact)
  }
  return /^\d+$/.test(v) ? Number(v) : 0
}

function rolling(d: KubeObject): Obj | undefined {
  const strategy = peek(d.spec, 'strategy')
  return str(strategy, 'type', 'RollingUpdate') === 'RollingUpdate'
    ? (peek(strategy, 'rollingUpdate') ?? {})
    : undefined
}

export function maxSurge(d: KubeObject): number {
  const r = rolling(d)
  return r ? resolveIntOrPercent(r.maxSurge ?? '25%', num(d.spec, 'replicas', 1), true) : 0
}

export function maxUnavailable(d: KubeObject): number {
  const r = rolling(d)
  const replicas = num(d.spec, 'replicas', 1)
  if (!r || replicas === 0) return 0
  let unavailable = resolveIntOrPercent(r.maxUnavailable ?? '25%', replicas, false)
  if (unavailable === 0 && maxSurge(d) === 0) unavailable = 1
  return Math.min(unavailable, replicas)
}

/** The annotations the Deployment's ReplicaSet `rs` should carry at `revision`. */
export function rsAnnotations(d: KubeObject, rs: KubeObject | undefined, revision: number) {
  const copied = Object.entries(d.metadata.annotations ?? {}).filter(([k]) => !NOT_COPIED.has(k))
  const desired = num(d.spec, 'replicas', 1)
  return {
    ...(rs?.metadata.annotations ?? {}),
    ...Object.fromEntries(copied),
    [DESIRED_REPLICAS]: String(desired),
    [MAX_REPLICAS]: String(desired + maxSurge(d)),
    [REVISION]: String(revision),
  }
}

export function newReplicaSet(
  d: KubeObject,
  hash: string,
  revision: number,
  replicas: number
): KubeObject {
  const spec = specOf(d)
  const template = structuredClone(isObj(spec.template) ? spec.template : {})
  const meta = isObj(template.metadata) ? template.metadata : {}
  const labels = { ...((meta.labels as Record<string, string>) ?? {}), [POD_TEMPLATE_HASH]: hash }
  template.metadata = { ...meta, labels }
  const selector = isObj(spec.selector) ? spec.selector : {}
  const matchLabels = { ...(peek(selector, 'matchLabels') ?? {}), [POD_TEMPLATE_HASH]: hash }
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${d.metadata.name}-${hash}`,
      namespace: d.metadata.namespace ?? 'default',
      labels,
      annotations: rsAnnotations(d, undefined, revision),
      ownerReferences: [ownerRef(d)],
    },
    spec: {
      replicas,
      ...(spec.minReadySeconds !== undefined ? { minReadySeconds: spec.minReadySeconds } : {}),
      selector: { ...selector, matchLabels },
      template,
    } as never,
  }
}
