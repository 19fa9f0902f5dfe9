/**
 * The DaemonSet controller for the edge's single node: one pod (`<ds>-<5 random chars>`, labels
 * controller-revision-hash and pod-template-generation) when the node matches the template's
 * nodeSelector, none otherwise; an outdated pod is replaced on a template change. Status:
 * desiredNumberScheduled, currentNumberScheduled, numberReady, numberAvailable,
 * updatedNumberScheduled, numberMisscheduled, numberUnavailable and observedGeneration. Pods
 * created or deleted get kube's SuccessfulCreate or SuccessfulDelete Event on the DaemonSet.
 */
import { jsonEqual } from '../hub/metadata.ts'
import type { KubeObject } from '../kube/types.ts'
import { isAvailable, isReady, isTerminated } from './conditions.ts'
import { podTemplateHash } from './hash.ts'
import { num, type Obj, peek, specOf } from './json.ts'
import { createIn, deleteIn, ownedBy, type SimContext, updateIn } from './sim-context.ts'
import { recordEvent, SOURCES } from './sim-events.ts'
import { podFromTemplate } from './sim-pods.ts'

const DS = SOURCES.daemonSet
const REVISION_LABEL = 'controller-revision-hash'

const templateOf = (ds: KubeObject) => specOf(ds).template

/** 1 when the edge's node fits the template's nodeSelector, else 0. */
function desiredOn(ctx: SimContext, ds: KubeObject): number {
  const selector = peek(peek(templateOf(ds), 'spec'), 'nodeSelector') ?? {}
  return Object.entries(selector).every(([k, v]) => ctx.node.labels[k] === v) ? 1 : 0
}

const livePods = (ctx: SimContext, ds: KubeObject) =>
  ownedBy(ctx, 'pods', ds.metadata.uid).filter((p) => !isTerminated(p))

async function syncOne(ctx: SimContext, ds: KubeObject): Promise<void> {
  const hash = podTemplateHash(templateOf(ds))
  const desired = desiredOn(ctx, ds)
  const pods = livePods(ctx, ds)
  const keep =
    desired > 0 ? pods.find((p) => p.metadata.labels?.[REVISION_LABEL] === hash) : undefined
  for (const pod of pods)
    if (pod !== keep && (await deleteIn(ctx, 'pods', pod)))
      await recordEvent(ctx, ds, {
        source: DS,
        reason: 'SuccessfulDelete',
        message: `Deleted pod: ${pod.metadata.name ?? ''}`,
      })
  if (desired === 0 || keep) return
  const labels = {
    [REVISION_LABEL]: hash,
    'pod-template-generation': String(ds.metadata.generation ?? 1),
  }
  const pod = await createIn(ctx, 'pods', podFromTemplate(ctx, ds, templateOf(ds), { labels }))
  if (pod)
    await recordEvent(ctx, ds, {
      source: DS,
      reason: 'SuccessfulCreate',
      message: `Created pod: ${pod.metadata.name ?? ''}`,
    })
}

export async function syncDaemonSets(ctx: SimContext): Promise<void> {
  for (const ds of [...ctx.snap.daemonsets])
    if (!ds.metadata.deletionTimestamp) await syncOne(ctx, ds)
}

export function daemonSetStatus(ctx: SimContext, ds: KubeObject): Obj {
  const hash = podTemplateHash(templateOf(ds))
  const pods = livePods(ctx, ds)
  const desired = desiredOn(ctx, ds)
  const now = ctx.now().getTime()
  const available = pods.filter((p) =>
    isAvailable(p, num(ds.spec, 'minReadySeconds', 0), now)
  ).length
  return {
    currentNumberScheduled: pods.length,
    desiredNumberScheduled: desired,
    numberMisscheduled: 0,
    numberReady: pods.filter(isReady).length,
    observedGeneration: ds.metadata.generation ?? 1,
    ...(available > 0 ? { numberAvailable: available } : {}),
    ...(desired - available > 0 ? { numberUnavailable: desired - available } : {}),
    updatedNumberScheduled: pods.filter((p) => p.metadata.labels?.[REVISION_LABEL] === hash).length,
  }
}

export async function daemonSetStatuses(ctx: SimContext): Promise<void> {
  for (const ds of [...ctx.snap.daemonsets]) {
    if (ds.metadata.deletionTimestamp) continue
    const status = daemonSetStatus(ctx, ds)
    if (!jsonEqual(status, ds.status ?? {}))
      await updateIn(ctx, 'daemonsets', { ...ds, status: status as never }, { status: true })
  }
}
