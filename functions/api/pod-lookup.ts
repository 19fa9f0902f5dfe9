/**
 * kubectl's lookup of a workload's pods, answered at once at the center. `kubectl logs
 * deploy/shop` (and exec, attach, port-forward of a workload) reads the workload, lists the pods
 * of its selector and, finding none, watches for one until `--pod-running-timeout` (20 s) and
 * then fails with "timed out waiting for the condition": a center space holds desired state only,
 * so the pods never come. That watch is told apart from every other by what only kubectl's
 * lookup sends together: a pods watch in one namespace of a center space, with kubectl's typed
 * client's Accept (protobuf first), no bookmarks asked (informers always ask), and a
 * labelSelector that is exactly the selector of a Deployment, ReplicaSet, StatefulSet,
 * DaemonSet, Job, ReplicationController or Service of that namespace. It is answered with the
 * 400 that names the edges the workload runs at and the command to ask one there
 * (lib/hub/unavailable-subresources.ts); `kubectl get pods -l ... -w` asks for a Table and is
 * served as always.
 */
import type { HubDeps } from '../../lib/hub/deps.ts'
import type { Target } from '../../lib/hub/target.ts'
import { podsElsewhere } from '../../lib/hub/unavailable-subresources.ts'
import {
  type LabelRequirement,
  type LabelSelector,
  labelSelectorRequirements,
  parseLabelRequirements,
} from '../../lib/kube/label-selector.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { edgesOf } from './object-edges.ts'
import type { ApiQuery } from './query.ts'

const PROTOBUF = 'application/vnd.kubernetes.protobuf'

/**
 * The kinds whose pods kubectl finds by selector (polymorphichelpers' SelectorsForObject), and
 * whether their `spec.selector` is a plain label map (Services, ReplicationControllers) rather
 * than a LabelSelector: the shape alone cannot tell, since `matchLabels` is a valid label key.
 */
const WORKLOADS = [
  { group: 'apps', resource: 'deployments', kind: 'Deployment', map: false },
  { group: 'apps', resource: 'replicasets', kind: 'ReplicaSet', map: false },
  { group: 'apps', resource: 'statefulsets', kind: 'StatefulSet', map: false },
  { group: 'apps', resource: 'daemonsets', kind: 'DaemonSet', map: false },
  { group: 'batch', resource: 'jobs', kind: 'Job', map: false },
  { group: '', resource: 'replicationcontrollers', kind: 'ReplicationController', map: true },
  { group: '', resource: 'services', kind: 'Service', map: true },
] as const

/** A selector's requirements in one order, so two spellings of one selector compare equal. */
function canonical(requirements: readonly LabelRequirement[]): string {
  const sorted = requirements
    .map((r) => ({ ...r, values: [...r.values].sort() }))
    .sort((a, b) => `${a.key} ${a.operator}`.localeCompare(`${b.key} ${b.operator}`))
  return JSON.stringify(sorted)
}

/** The selector of a workload's pods, in the shape its kind gives it. */
function podSelector(obj: KubeObject, map: boolean): LabelRequirement[] | undefined {
  const selector = (obj.spec as { selector?: unknown } | undefined)?.selector
  if (typeof selector !== 'object' || selector === null) return undefined
  return labelSelectorRequirements(
    map ? { matchLabels: selector as Record<string, string> } : (selector as LabelSelector)
  )
}

/** Whether the request looks like kubectl's pod lookup (before anything is read). */
function mayBePodLookup(deps: HubDeps, t: Target, r: { query: ApiQuery; req: Request }): boolean {
  if ((deps.site ?? 'center') !== 'center') return false
  if (t.info.group !== '' || t.info.resource !== 'pods' || !t.namespace) return false
  const q = r.query
  if (!q.watch || q.allowWatchBookmarks || !q.labelSelector) return false
  return (r.req.headers.get('accept') ?? '').startsWith(PROTOBUF)
}

/** Throws the answer when the watch is kubectl's lookup of a workload's pods. */
export async function refusePodLookup(
  deps: HubDeps,
  t: Target,
  r: { query: ApiQuery; req: Request }
): Promise<void> {
  if (!mayBePodLookup(deps, t, r)) return
  const wanted = canonical(parseLabelRequirements(r.query.labelSelector ?? ''))
  const namespace = t.namespace ?? ''
  const lists = await Promise.all(
    WORKLOADS.map(async (w) => ({
      ...w,
      items: (
        await deps.objects.list({
          cluster: t.space.id,
          group: w.group,
          resource: w.resource,
          namespace,
          itemsOnly: true,
        })
      ).items,
    }))
  )
  for (const w of lists) {
    const found = w.items.find((o) => {
      const selector = podSelector(o, w.map)
      return selector !== undefined && selector.length > 0 && canonical(selector) === wanted
    })
    if (!found) continue
    const name = found.metadata.name ?? ''
    const ref = { group: w.group, resource: w.resource, namespace, name }
    throw podsElsewhere({ kind: w.kind, namespace, name, edges: await edgesOf(deps, t.space, ref) })
  }
}
