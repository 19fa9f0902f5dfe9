/**
 * The ReplicaSet controller: keeps `spec.replicas` live pods (`<rs>-<5 random chars>`, owned by
 * the ReplicaSet) — creating missing ones, deleting surplus ones (not-ready and newest first) — and
 * records SuccessfulCreate and SuccessfulDelete Events about them, and writes the status:
 * replicas, fullyLabeledReplicas, readyReplicas, availableReplicas (ready for minReadySeconds) and
 * observedGeneration. Zero counts are left out, as kube's omitempty does,
 * except `replicas`.
 */
import { jsonEqual } from '../hub/metadata.ts'
import type { KubeObject } from '../kube/types.ts'
import { isAvailable, isReady, isTerminated, readySince } from './conditions.ts'
import { num, type Obj, peek, specOf, statusOf } from './json.ts'
import { createIn, deleteIn, ownedBy, type SimContext, updateIn, wakeAt } from './sim-context.ts'
import { recordEvent, SOURCES } from './sim-events.ts'
import { podFromTemplate } from './sim-pods.ts'

const RS = SOURCES.replicaSet
const nameOf = (o: KubeObject) => o.metadata.name ?? ''

export const activePods = (ctx: SimContext, owner: KubeObject) =>
  ownedBy(ctx, 'pods', owner.metadata.uid).filter((p) => !isTerminated(p))

/** Surplus pods in the order kube deletes them: not ready first, then the newest. */
function victims(pods: KubeObject[], count: number): KubeObject[] {
  // slice(0, n) with a negative n would take all but the last |n|: no surplus, no victims.
  if (count <= 0) return []
  const created = (p: KubeObject) => Date.parse(p.metadata.creationTimestamp ?? '') || 0
  return [...pods]
    .sort((a, b) => Number(isReady(a)) - Number(isReady(b)) || created(b) - created(a))
    .slice(0, count)
}

export async function scaleReplicaSets(ctx: SimContext): Promise<void> {
  for (const rs of [...ctx.snap.replicasets]) {
    if (rs.metadata.deletionTimestamp) continue
    const spec = specOf(rs)
    const desired = num(spec, 'replicas', 1)
    const pods = activePods(ctx, rs)
    for (let i = pods.length; i < desired; i++) {
      const pod = await createIn(ctx, 'pods', podFromTemplate(ctx, rs, spec.template))
      if (pod)
        await recordEvent(ctx, rs, {
          source: RS,
          reason: 'SuccessfulCreate',
          message: `Created pod: ${nameOf(pod)}`,
        })
    }
    for (const pod of victims(pods, pods.length - desired))
      if (await deleteIn(ctx, 'pods', pod))
        await recordEvent(ctx, rs, {
          source: RS,
          reason: 'SuccessfulDelete',
          message: `Deleted pod: ${nameOf(pod)}`,
        })
  }
}

function labelsMatch(pod: KubeObject, wanted: Obj): boolean {
  const labels = pod.metadata.labels ?? {}
  return Object.entries(wanted).every(([k, v]) => labels[k] === v)
}

export function replicaSetStatus(ctx: SimContext, rs: KubeObject): Obj {
  const spec = specOf(rs)
  const pods = activePods(ctx, rs)
  const templateLabels = peek(peek(spec.template, 'metadata'), 'labels') ?? {}
  const now = ctx.now().getTime()
  const minReady = num(spec, 'minReadySeconds', 0)
  for (const pod of pods.filter((p) => isReady(p) && !isAvailable(p, minReady, now)))
    if (Number.isFinite(readySince(pod))) wakeAt(ctx, readySince(pod) + minReady * 1000)
  const counts: Obj = {
    fullyLabeledReplicas: pods.filter((p) => labelsMatch(p, templateLabels)).length,
    readyReplicas: pods.filter(isReady).length,
    availableReplicas: pods.filter((p) => isAvailable(p, minReady, now)).length,
  }
  const old = statusOf(rs)
  return {
    replicas: pods.length,
    ...Object.fromEntries(Object.entries(counts).filter(([, v]) => v !== 0)),
    observedGeneration: rs.metadata.generation ?? 1,
    ...(Array.isArray(old.conditions) ? { conditions: old.conditions } : {}),
  }
}

export async function replicaSetStatuses(ctx: SimContext): Promise<void> {
  for (const rs of [...ctx.snap.replicasets]) {
    const status = replicaSetStatus(ctx, rs)
    if (!jsonEqual(status, rs.status ?? {}))
      await updateIn(ctx, 'replicasets', { ...rs, status: status as never }, { status: true })
  }
}
