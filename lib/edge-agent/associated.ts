/**
 * The associated objects of a downsynced workload, as the edge shows them: a Deployment's
 * ReplicaSets (by ownerReference uid) and their Pods; the Pods of a ReplicaSet, StatefulSet,
 * DaemonSet or Job. Each becomes a short line (kind, namespace, name, phase, ready, reason),
 * sorted, at most 500. Lists are read once per namespace and resource per poll (`memoLister`).
 * A Job's succeeded Pod shows phase "Complete", as the protocol describes.
 */
import type { Associated } from '../edge/protocol.ts'
import type { GroupVersionResource, KubeObject } from '../kube/types.ts'
import type { EdgeKube } from './kube-client.ts'
import { isRecord } from './refs.ts'

export type Lister = (gvr: GroupVersionResource, namespace: string) => Promise<KubeObject[]>

export function memoLister(kube: EdgeKube): Lister {
  const seen = new Map<string, Promise<KubeObject[]>>()
  return (gvr, namespace) => {
    const k = `${gvr.group}/${gvr.version}/${gvr.resource}/${namespace}`
    let p = seen.get(k)
    if (!p) {
      p = kube.list(gvr, namespace)
      seen.set(k, p)
    }
    return p
  }
}

const PODS: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' }
const REPLICASETS: GroupVersionResource = { group: 'apps', version: 'v1', resource: 'replicasets' }
const POD_OWNERS = new Set([
  'apps/replicasets',
  'apps/statefulsets',
  'apps/daemonsets',
  'batch/jobs',
])
export const MAX_ASSOCIATED = 500

const ownedBy = (o: KubeObject, uid: string | undefined) =>
  uid !== undefined && (o.metadata.ownerReferences ?? []).some((r) => r.uid === uid)

const statusOf = (o: KubeObject): Record<string, unknown> => (isRecord(o.status) ? o.status : {})

function containerReason(status: Record<string, unknown>): string | undefined {
  const list = Array.isArray(status.containerStatuses) ? status.containerStatuses : []
  for (const c of list) {
    const state = isRecord(c) && isRecord(c.state) ? c.state : {}
    for (const s of [state.waiting, state.terminated])
      if (isRecord(s) && typeof s.reason === 'string') return s.reason
  }
  return undefined
}

function podLine(pod: KubeObject, jobPod: boolean): Associated {
  const s = statusOf(pod)
  const conditions = Array.isArray(s.conditions) ? s.conditions : []
  const ready = conditions.some((c) => isRecord(c) && c.type === 'Ready' && c.status === 'True')
  let phase = typeof s.phase === 'string' ? s.phase : undefined
  if (jobPod && phase === 'Succeeded') phase = 'Complete'
  const reason = typeof s.reason === 'string' ? s.reason : containerReason(s)
  return {
    kind: 'Pod',
    namespace: pod.metadata.namespace ?? '',
    name: pod.metadata.name ?? '',
    ...(phase ? { phase } : {}),
    ready,
    ...(reason ? { reason } : {}),
  }
}

function replicaSetLine(rs: KubeObject): Associated {
  const s = statusOf(rs)
  const spec: Record<string, unknown> = isRecord(rs.spec) ? rs.spec : {}
  const want = typeof spec.replicas === 'number' ? spec.replicas : 1
  const ready = typeof s.readyReplicas === 'number' ? s.readyReplicas : 0
  return {
    kind: 'ReplicaSet',
    namespace: rs.metadata.namespace ?? '',
    name: rs.metadata.name ?? '',
    ready: ready >= want,
  }
}

const byKindName = (a: Associated, b: Associated) =>
  a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0

/** The associated lines of `obj`, or undefined for kinds that have none. */
export async function associatedOf(
  obj: KubeObject,
  group: string,
  resource: string,
  list: Lister
): Promise<Associated[] | undefined> {
  const ns = obj.metadata.namespace ?? ''
  const uid = obj.metadata.uid
  const gr = `${group}/${resource}`
  let lines: Associated[]
  if (gr === 'apps/deployments') {
    const sets = (await list(REPLICASETS, ns)).filter((rs) => ownedBy(rs, uid))
    const pods = (await list(PODS, ns)).filter((p) =>
      sets.some((rs) => ownedBy(p, rs.metadata.uid))
    )
    lines = [...sets.map(replicaSetLine), ...pods.map((p) => podLine(p, false))]
  } else if (POD_OWNERS.has(gr)) {
    const pods = (await list(PODS, ns)).filter((p) => ownedBy(p, uid))
    lines = pods.map((p) => podLine(p, gr === 'batch/jobs'))
  } else return undefined
  return lines.sort(byKindName).slice(0, MAX_ASSOCIATED)
}
