/**
 * Pods: building one from a workload's pod template (owned by the workload, bound to the edge's
 * node), and the scheduler's and kubelet's part of a pass. An unbound pod is bound to the node; a
 * pod without a Running status becomes Running with every container ready (conditions
 * PodReadyToStartContainers, Initialized, Ready, ContainersReady and PodScheduled True, pod and
 * host IPs, start time, container ids), with the Events of a start; a Job's pod succeeds
 * `jobDurationMs` after it started (containers terminated with reason Completed); a pod with an
 * image that cannot be pulled stays Pending instead (sim-image-pull.ts), a container told to
 * crash-loops (sim-crash-loop.ts) and a Job's pod told to fail ends Failed (sim-pod-end.ts). Pods marked for deletion
 * without finalizers go.
 */
import { timestamp } from '../kube/time.ts'
import type { KubeObject } from '../kube/types.ts'
import { isTerminated, phaseOf } from './conditions.ts'
import { qualifiedImage, randomHex } from './hash.ts'
import { type Obj, objects, peek, specOf, statusOf, str } from './json.ts'
import {
  controllerRef,
  deleteIn,
  ownerRef,
  type SimContext,
  updateIn,
  wakeAt,
} from './sim-context.ts'
import { crashLoop, restartsInPlace } from './sim-crash-loop.ts'
import { podStartedEvents } from './sim-events.ts'
import { holdUnpulled, unpullableImage } from './sim-image-pull.ts'
import { endJobPod } from './sim-pod-end.ts'

type PodOptions = {
  name?: string
  generateName?: string
  labels?: Record<string, string>
  annotations?: Record<string, string>
  spec?: Obj
}

/** A new Pod of `owner` from its pod template (`template`), on the edge's node. */
export function podFromTemplate(
  ctx: SimContext,
  owner: KubeObject,
  template: unknown,
  opts: PodOptions = {}
): KubeObject {
  const meta = peek(template, 'metadata') ?? {}
  const spec = structuredClone(peek(template, 'spec') ?? {})
  const labels = { ...((meta.labels as Record<string, string>) ?? {}), ...(opts.labels ?? {}) }
  const annotations = {
    ...((meta.annotations as Record<string, string>) ?? {}),
    ...(opts.annotations ?? {}),
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...(opts.name
        ? { name: opts.name }
        : { generateName: opts.generateName ?? `${owner.metadata.name}-` }),
      namespace: owner.metadata.namespace ?? 'default',
      labels,
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      ownerReferences: [ownerRef(owner)],
    },
    spec: { ...spec, ...(opts.spec ?? {}), nodeName: ctx.node.name } as never,
  }
}

function qosClass(containers: Obj[]): string {
  const res = containers.map((c) => peek(c, 'resources') ?? {})
  const any = res.some(
    (r) =>
      Object.keys(peek(r, 'requests') ?? {}).length + Object.keys(peek(r, 'limits') ?? {}).length >
      0
  )
  if (!any) return 'BestEffort'
  const guaranteed = res.every((r) => {
    const limits = peek(r, 'limits') ?? {}
    const requests = peek(r, 'requests') ?? limits
    return ['cpu', 'memory'].every((k) => limits[k] !== undefined && limits[k] === requests[k])
  })
  return guaranteed ? 'Guaranteed' : 'Burstable'
}

function containerStatus(ctx: SimContext, c: Obj, state: Obj, ready: boolean): Obj {
  const image = qualifiedImage(str(c, 'image'))
  return {
    name: str(c, 'name'),
    image,
    imageID: `${image.replace(/:[^:/]*$/, '')}@sha256:${randomHex(64, ctx.random)}`,
    containerID: `containerd://${randomHex(64, ctx.random)}`,
    ready,
    started: ready,
    restartCount: 0,
    state,
    lastState: {},
  }
}

const cond = (type: string, status: string, at: string, reason?: string) => ({
  type,
  status,
  lastTransitionTime: at,
  ...(reason ? { reason } : {}),
})

function runningStatus(ctx: SimContext, pod: KubeObject, at: string): Obj {
  const spec = specOf(pod)
  const ip = `10.244.${Math.floor(ctx.random() * 256)}.${2 + Math.floor(ctx.random() * 252)}`
  const containers = objects(spec, 'containers')
  const inits = objects(spec, 'initContainers')
  const done = { terminated: { exitCode: 0, reason: 'Completed', startedAt: at, finishedAt: at } }
  return {
    phase: 'Running',
    conditions: [
      'PodReadyToStartContainers',
      'Initialized',
      'Ready',
      'ContainersReady',
      'PodScheduled',
    ].map((t) => cond(t, 'True', at)),
    hostIP: ctx.node.ip,
    hostIPs: [{ ip: ctx.node.ip }],
    podIP: ip,
    podIPs: [{ ip }],
    startTime: at,
    qosClass: qosClass(containers),
    containerStatuses: containers.map((c) =>
      containerStatus(ctx, c, { running: { startedAt: at } }, true)
    ),
    ...(inits.length > 0
      ? { initContainerStatuses: inits.map((c) => containerStatus(ctx, c, done, true)) }
      : {}),
  }
}

/** The kubelet starting a pending pod (and a Job's pod's end being due). */
async function startPod(ctx: SimContext, pod: KubeObject, at: string, nowMs: number) {
  const started = await updateIn(
    ctx,
    'pods',
    { ...pod, status: runningStatus(ctx, pod, at) as never },
    { as: 'kubelet', status: true }
  )
  if (started) await podStartedEvents(ctx, started)
  if (controllerRef(pod)?.kind === 'Job') wakeAt(ctx, nowMs + ctx.jobDurationMs)
}

/** The kubelet's part for a bound, live pod: start it (or hold or crash it), end a Job's pod. */
async function runPod(ctx: SimContext, pod: KubeObject, at: string, nowMs: number) {
  if (phaseOf(pod) === 'Pending') {
    const unpulled = unpullableImage(ctx, pod)
    if (unpulled) await holdUnpulled(ctx, pod, unpulled)
    else if (restartsInPlace(ctx, pod)) await crashLoop(ctx, pod)
    else await startPod(ctx, pod, at, nowMs)
    return
  }
  if (isTerminated(pod)) return
  if (restartsInPlace(ctx, pod)) {
    await crashLoop(ctx, pod)
    return
  }
  if (controllerRef(pod)?.kind !== 'Job') return
  const due = Date.parse(str(statusOf(pod), 'startTime')) + ctx.jobDurationMs
  if (Number.isFinite(due) && due > nowMs) wakeAt(ctx, due)
  else await endJobPod(ctx, pod, at)
}

/** The scheduler and kubelet: bind, start, finish Job pods, drop deleted ones. */
export async function runKubelet(ctx: SimContext): Promise<void> {
  const nowMs = ctx.now().getTime()
  const at = timestamp(ctx.now())
  for (const pod of [...ctx.snap.pods]) {
    if (pod.metadata.deletionTimestamp) {
      if ((pod.metadata.finalizers ?? []).length === 0) await deleteIn(ctx, 'pods', pod)
      continue
    }
    let current: KubeObject | undefined = pod
    const spec = specOf(pod)
    if (!spec.nodeName) {
      const bound = { ...pod, spec: { ...spec, nodeName: ctx.node.name } as never }
      current = await updateIn(ctx, 'pods', bound, { as: 'kubelet' })
      if (!current) continue
    }
    await runPod(ctx, current, at, nowMs)
  }
}
