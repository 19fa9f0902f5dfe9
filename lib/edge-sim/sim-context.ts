/**
 * What the simulated controllers share during one pass: the hub clients they write with (as
 * kube-controller-manager and as the kubelet), the node the pods run on, the clock and randomness,
 * and the snapshot of the workload objects read at the start of the pass. Writes made during the
 * pass are put back into the snapshot, so later steps of the same pass (pod statuses, then
 * ReplicaSet and Deployment statuses) see them. A failed write (a Conflict because someone else
 * wrote first, a NotFound because it was deleted) is logged and left for the next pass.
 */
import { isApiError } from '../errors.ts'
import type { Gvr, HubClient } from '../hub/client.ts'
import type { KubeObject, OwnerReference } from '../kube/types.ts'
import type { Logger } from '../log.ts'
import type { Fault } from './faults.ts'

export const GVRS = {
  pods: { group: '', version: 'v1', resource: 'pods' },
  replicasets: { group: 'apps', version: 'v1', resource: 'replicasets' },
  deployments: { group: 'apps', version: 'v1', resource: 'deployments' },
  statefulsets: { group: 'apps', version: 'v1', resource: 'statefulsets' },
  daemonsets: { group: 'apps', version: 'v1', resource: 'daemonsets' },
  jobs: { group: 'batch', version: 'v1', resource: 'jobs' },
} as const satisfies Record<string, Gvr>

export type Kind = keyof typeof GVRS

/** Listed dependents first, so an owner created meanwhile is never missing for its dependent. */
export const LIST_ORDER: Kind[] = [
  'pods',
  'replicasets',
  'jobs',
  'statefulsets',
  'daemonsets',
  'deployments',
]

export type Snapshot = Record<Kind, KubeObject[]>

export type NodeInfo = { name: string; ip: string; labels: Record<string, string> }

export type SimContext = {
  /** Writes as kube-controller-manager (ReplicaSets, Pods, workload statuses). */
  controller: HubClient
  /** Writes as the kubelet (pod binding and status). */
  kubelet: HubClient
  /** The space the edge cluster's objects live in (`root`). */
  space: string
  node: NodeInfo
  now: () => Date
  random: () => number
  log: Logger
  /** How long a Job's pod runs before it ends. */
  jobDurationMs: number
  /** The failures this edge is told to have (faults.ts); none by default. */
  faults: readonly Fault[]
  snap: Snapshot
  /** Writes made in this pass (0 when everything was already as it should be). */
  writes: number
  /** The earliest time (ms) something is due to change without another write (a Job pod ending). */
  wakeAt?: number
}

export async function loadSnapshot(client: HubClient, space: string): Promise<Snapshot> {
  const snap = {} as Snapshot
  for (const kind of LIST_ORDER) snap[kind] = await client.list(space, GVRS[kind])
  return snap
}

export function controllerRef(obj: KubeObject): OwnerReference | undefined {
  return (obj.metadata.ownerReferences ?? []).find((r) => r.controller === true)
}

/** Objects of `kind` whose controller is `uid`. */
export function ownedBy(ctx: SimContext, kind: Kind, uid: string | undefined): KubeObject[] {
  return ctx.snap[kind].filter((o) => uid && controllerRef(o)?.uid === uid)
}

export function ownerRef(owner: KubeObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name ?? '',
    uid: owner.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  }
}

/** Puts a written object into the snapshot (replacing the one with its uid). */
export function remember(ctx: SimContext, kind: Kind, obj: KubeObject): void {
  const list = ctx.snap[kind]
  const i = list.findIndex((o) => o.metadata.uid === obj.metadata.uid)
  if (i >= 0) list[i] = obj
  else list.push(obj)
}

export function forget(ctx: SimContext, kind: Kind, uid: string | undefined): void {
  ctx.snap[kind] = ctx.snap[kind].filter((o) => o.metadata.uid !== uid)
}

/** Runs one write; counts it, and on failure logs and returns undefined. */
export async function attempt<T>(
  ctx: SimContext,
  what: string,
  write: () => Promise<T>
): Promise<T | undefined> {
  try {
    const out = await write()
    ctx.writes++
    ctx.log.debug('simulator wrote', { what })
    return out
  } catch (e) {
    const expected = isApiError(e) && (e.code === 409 || e.code === 404)
    if (expected) ctx.log.debug('simulator write skipped', { what, reason: e.reason })
    else ctx.log.warn('simulator write failed', { what, error: e })
    return undefined
  }
}

export function wakeAt(ctx: SimContext, at: number): void {
  ctx.wakeAt = ctx.wakeAt === undefined ? at : Math.min(ctx.wakeAt, at)
}

/** Creates (and remembers) an object of `kind`. */
export async function createIn(
  ctx: SimContext,
  kind: Kind,
  obj: KubeObject,
  as: 'controller' | 'kubelet' = 'controller'
): Promise<KubeObject | undefined> {
  const client = ctx[as]
  const created = await attempt(ctx, `create ${kind} ${obj.metadata.name ?? ''}`, () =>
    client.create(ctx.space, GVRS[kind], obj)
  )
  if (created) remember(ctx, kind, created)
  return created
}

/** Replaces (and remembers) an object of `kind`, its status only when `status`. */
export async function updateIn(
  ctx: SimContext,
  kind: Kind,
  obj: KubeObject,
  opts: { status?: boolean; as?: 'controller' | 'kubelet' } = {}
): Promise<KubeObject | undefined> {
  const client = ctx[opts.as ?? 'controller']
  const what = `${opts.status ? 'status of ' : 'update '}${kind} ${obj.metadata.name ?? ''}`
  const written = await attempt(ctx, what, () =>
    opts.status
      ? client.updateStatus(ctx.space, GVRS[kind], obj)
      : client.update(ctx.space, GVRS[kind], obj)
  )
  if (written) remember(ctx, kind, written)
  return written
}

/** Deletes (and forgets) an object of `kind`, guarded by its uid; true when it was deleted now. */
export async function deleteIn(ctx: SimContext, kind: Kind, obj: KubeObject): Promise<boolean> {
  const m = obj.metadata
  const deleted = await attempt(ctx, `delete ${kind} ${m.name ?? ''}`, async () => {
    await ctx.controller.delete(ctx.space, GVRS[kind], m.name ?? '', {
      ...(m.namespace ? { namespace: m.namespace } : {}),
      ...(m.uid ? { uid: m.uid } : {}),
      propagationPolicy: 'Background',
    })
    return true
  })
  forget(ctx, kind, m.uid)
  return deleted === true
}
