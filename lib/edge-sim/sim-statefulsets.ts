/**
 * The StatefulSet controller: pods `<sts>-0 … <sts>-(n-1)` labelled with controller-revision-hash
 * `<sts>-<template hash>`, pod-name and pod-index. OrderedReady creates the lowest missing ordinal
 * once every lower one is ready; Parallel creates all at once. Surplus ordinals are deleted; on a
 * template change (RollingUpdate) one outdated pod at or above the partition is replaced per pass,
 * highest ordinal first, while the others are ready. Status: observedGeneration, replicas,
 * readyReplicas, currentReplicas, updatedReplicas, availableReplicas, currentRevision (moves to
 * updateRevision once every pod is updated), updateRevision and collisionCount. Each pod created
 * or deleted gets kube's SuccessfulCreate or SuccessfulDelete Event on the StatefulSet.
 */
import { jsonEqual } from '../hub/metadata.ts'
import type { KubeObject } from '../kube/types.ts'
import { isAvailable, isReady, isTerminated } from './conditions.ts'
import { podTemplateHash } from './hash.ts'
import { num, type Obj, peek, specOf, statusOf, str } from './json.ts'
import { createIn, deleteIn, ownedBy, type SimContext, updateIn } from './sim-context.ts'
import { recordEvent, SOURCES } from './sim-events.ts'
import { podFromTemplate } from './sim-pods.ts'

const REVISION_LABEL = 'controller-revision-hash'

/** The SuccessfulCreate/SuccessfulDelete Event kube's StatefulSet controller records. */
async function podEvent(
  ctx: SimContext,
  sts: KubeObject,
  verb: 'create' | 'delete',
  pod: KubeObject
) {
  const reason = verb === 'create' ? 'SuccessfulCreate' : 'SuccessfulDelete'
  const message = `${verb} Pod ${pod.metadata.name ?? ''} in StatefulSet ${sts.metadata.name ?? ''} successful`
  await recordEvent(ctx, sts, { source: SOURCES.statefulSet, reason, message })
}

async function deletePod(ctx: SimContext, sts: KubeObject, pod: KubeObject) {
  if (await deleteIn(ctx, 'pods', pod)) await podEvent(ctx, sts, 'delete', pod)
}

const revisionFor = (sts: KubeObject) =>
  `${sts.metadata.name}-${podTemplateHash(specOf(sts).template)}`

function ordinalOf(sts: KubeObject, pod: KubeObject): number {
  const suffix = (pod.metadata.name ?? '').slice((sts.metadata.name ?? '').length + 1)
  return /^\d+$/.test(suffix) ? Number(suffix) : -1
}

function podsByOrdinal(ctx: SimContext, sts: KubeObject): Map<number, KubeObject> {
  const out = new Map<number, KubeObject>()
  for (const pod of ownedBy(ctx, 'pods', sts.metadata.uid))
    if (!isTerminated(pod)) out.set(ordinalOf(sts, pod), pod)
  return out
}

async function syncOne(ctx: SimContext, sts: KubeObject): Promise<void> {
  const spec = specOf(sts)
  const desired = num(spec, 'replicas', 1)
  const revision = revisionFor(sts)
  const pods = podsByOrdinal(ctx, sts)
  for (const [ordinal, pod] of pods)
    if (ordinal < 0 || ordinal >= desired) {
      await deletePod(ctx, sts, pod)
      pods.delete(ordinal)
    }
  const parallel = str(spec, 'podManagementPolicy') === 'Parallel'
  for (let i = 0; i < desired; i++) {
    if (pods.has(i)) continue
    const lowerReady = [...pods].every(([o, p]) => o > i || isReady(p))
    if (!parallel && !lowerReady) break
    const name = `${sts.metadata.name}-${i}`
    const serviceName = str(spec, 'serviceName')
    const pod = podFromTemplate(ctx, sts, spec.template, {
      name,
      labels: {
        [REVISION_LABEL]: revision,
        'statefulset.kubernetes.io/pod-name': name,
        'apps.kubernetes.io/pod-index': String(i),
      },
      spec: { hostname: name, ...(serviceName ? { subdomain: serviceName } : {}) },
    })
    const created = await createIn(ctx, 'pods', pod)
    if (created) {
      pods.set(i, created)
      await podEvent(ctx, sts, 'create', created)
    }
    if (!parallel) break
  }
  const strategy = peek(spec, 'updateStrategy')
  if (str(strategy, 'type', 'RollingUpdate') !== 'RollingUpdate') return
  const partition = num(peek(strategy, 'rollingUpdate'), 'partition', 0)
  const outdated = [...pods]
    .filter(([o, p]) => o >= partition && p.metadata.labels?.[REVISION_LABEL] !== revision)
    .sort(([a], [b]) => b - a)
  const first = outdated[0]
  if (first && [...pods.values()].every(isReady)) await deletePod(ctx, sts, first[1])
}

export async function syncStatefulSets(ctx: SimContext): Promise<void> {
  for (const sts of [...ctx.snap.statefulsets])
    if (!sts.metadata.deletionTimestamp) await syncOne(ctx, sts)
}

export function statefulSetStatus(ctx: SimContext, sts: KubeObject): Obj {
  const old = statusOf(sts)
  const revision = revisionFor(sts)
  const pods = [...podsByOrdinal(ctx, sts).values()]
  const updated = pods.filter((p) => p.metadata.labels?.[REVISION_LABEL] === revision).length
  const desired = num(sts.spec, 'replicas', 1)
  const currentRevision =
    updated === pods.length && pods.length === desired
      ? revision
      : str(old, 'currentRevision', revision)
  const current = pods.filter((p) => p.metadata.labels?.[REVISION_LABEL] === currentRevision).length
  const now = ctx.now().getTime()
  const counts: Obj = {
    readyReplicas: pods.filter(isReady).length,
    currentReplicas: current,
    updatedReplicas: updated,
  }
  return {
    observedGeneration: sts.metadata.generation ?? 1,
    replicas: pods.length,
    ...Object.fromEntries(Object.entries(counts).filter(([, v]) => v !== 0)),
    availableReplicas: pods.filter((p) => isAvailable(p, num(sts.spec, 'minReadySeconds', 0), now))
      .length,
    currentRevision,
    updateRevision: revision,
    collisionCount: num(old, 'collisionCount', 0),
  }
}

export async function statefulSetStatuses(ctx: SimContext): Promise<void> {
  for (const sts of [...ctx.snap.statefulsets]) {
    if (sts.metadata.deletionTimestamp) continue
    const status = statefulSetStatus(ctx, sts)
    if (!jsonEqual(status, sts.status ?? {}))
      await updateIn(ctx, 'statefulsets', { ...sts, status: status as never }, { status: true })
  }
}
