/**
 * The Events kube's controllers, scheduler and kubelet record about what they just did, as core/v1
 * Events in the object's namespace whose `involvedObject` names it with its uid (what `kubectl
 * describe` selects on): ScalingReplicaSet on a Deployment, SuccessfulCreate and SuccessfulDelete
 * on the owner of a pod it created or deleted, Completed on a Job, Scheduled, Pulled, Created
 * and Started on a pod that starts, and the Warnings of an image that cannot be pulled
 * (sim-image-pull.ts). Each is a first occurrence (count 1) named as kube's recorder
 * names them, `<object>.<hex nanoseconds>`, so a list (ordered by name) is in recording order; a
 * failed write is logged and dropped, as kube's recorder is best effort too. Events are written
 * only beside a change the pass made, so an idle edge writes none; they expire an hour after they
 * were last seen, as with kube-apiserver's default --event-ttl.
 */
import { timestamp } from '../kube/time.ts'
import type { KubeObject } from '../kube/types.ts'
import { objects, specOf, str } from './json.ts'
import { attempt, type SimContext } from './sim-context.ts'

const EVENTS = { group: '', version: 'v1', resource: 'events' }

/** The component that records: a controller by name, the scheduler, or the node's kubelet. */
export type EventSource = string

export const SOURCES = {
  deployment: 'deployment-controller',
  replicaSet: 'replicaset-controller',
  job: 'job-controller',
  statefulSet: 'statefulset-controller',
  daemonSet: 'daemonset-controller',
  scheduler: 'default-scheduler',
  kubelet: 'kubelet',
} as const

/** One Event to record: who says it, why, and the part of the object it is about, if any. */
export type SimEvent = {
  source: EventSource
  reason: string
  message: string
  fieldPath?: string
  /** Normal unless told. */
  type?: 'Normal' | 'Warning'
}

/** Records one Event (Normal unless `e.type` says Warning) about `about` from `e.source`. */
export async function recordEvent(ctx: SimContext, about: KubeObject, e: SimEvent): Promise<void> {
  const { source, reason, message } = e
  const m = about.metadata
  const name = m.name ?? ''
  const at = timestamp(ctx.now())
  const host = source === SOURCES.kubelet ? { host: ctx.node.name } : {}
  // Nanoseconds from the clock's milliseconds plus the pass's write count: increasing within a
  // pass (every event is a write), and passes are milliseconds apart.
  const nanos = BigInt(ctx.now().getTime()) * 1_000_000n + BigInt(ctx.writes % 1_000_000)
  const event = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${name}.${nanos.toString(16)}`, namespace: m.namespace ?? 'default' },
    involvedObject: {
      apiVersion: about.apiVersion,
      kind: about.kind,
      name,
      ...(m.namespace ? { namespace: m.namespace } : {}),
      ...(m.uid ? { uid: m.uid } : {}),
      ...(m.resourceVersion ? { resourceVersion: m.resourceVersion } : {}),
      ...(e.fieldPath ? { fieldPath: e.fieldPath } : {}),
    },
    reason,
    message,
    type: e.type ?? 'Normal',
    source: { component: source, ...host },
    firstTimestamp: at,
    lastTimestamp: at,
    count: 1,
    reportingComponent: source,
    reportingInstance: host.host ?? '',
  } as unknown as KubeObject
  await attempt(ctx, `event ${reason} ${about.kind} ${name}`, () =>
    ctx.controller.create(ctx.space, EVENTS, event)
  )
}

/** What kube records when a pod starts: Scheduled, then per container Pulled, Created, Started. */
export async function podStartedEvents(ctx: SimContext, pod: KubeObject): Promise<void> {
  const ns = pod.metadata.namespace ?? 'default'
  await recordEvent(ctx, pod, {
    source: SOURCES.scheduler,
    reason: 'Scheduled',
    message: `Successfully assigned ${ns}/${pod.metadata.name ?? ''} to ${ctx.node.name}`,
  })
  const spec = specOf(pod)
  const containers = [
    ...objects(spec, 'initContainers').map((c) => ({ c, path: 'initContainers' })),
    ...objects(spec, 'containers').map((c) => ({ c, path: 'containers' })),
  ]
  for (const { c, path } of containers) {
    const name = str(c, 'name')
    const fieldPath = `spec.${path}{${name}}`
    const image = str(c, 'image')
    const said: [string, string][] = [
      ['Pulled', `Container image "${image}" already present on machine`],
      ['Created', `Created container: ${name}`],
      ['Started', `Started container: ${name}`],
    ]
    for (const [reason, message] of said)
      await recordEvent(ctx, pod, { source: SOURCES.kubelet, reason, message, fieldPath })
  }
}

/** Deletes the Events last seen more than `ttlMs` ago. */
export async function expireEvents(ctx: SimContext, ttlMs: number): Promise<void> {
  const cutoff = ctx.now().getTime() - ttlMs
  for (const e of await ctx.controller.list(ctx.space, EVENTS)) {
    const seen = e as KubeObject & { lastTimestamp?: string }
    const last = Date.parse(seen.lastTimestamp ?? e.metadata.creationTimestamp ?? '')
    if (!Number.isFinite(last) || last >= cutoff) continue
    const m = e.metadata
    await attempt(ctx, `expire event ${m.name ?? ''}`, () =>
      ctx.controller.delete(ctx.space, EVENTS, m.name ?? '', {
        ...(m.namespace ? { namespace: m.namespace } : {}),
        ...(m.uid ? { uid: m.uid } : {}),
      })
    )
  }
}
