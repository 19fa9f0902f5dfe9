/**
 * Delete of one object. Preconditions (uid, resourceVersion) are checked first. An object with
 * finalizers only gets a deletionTimestamp; whoever owns a finalizer removes it and the last
 * removal deletes the object. Kinds that own content (Namespaces, Workspaces, CRDs) go through a
 * terminating phase: the deletionTimestamp is set, their content is removed in the background, then
 * they go. Otherwise the object is removed now and its dependents are collected per the
 * propagation policy. A delete that lost a race to a concurrent writer reads again and decides
 * again (retry-stale.ts): a plain delete never fails because something else wrote the object, and
 * DeleteOptions preconditions are checked against each fresh read.
 */
import { withReservations } from '../budget/frames.ts'
import { conflict } from '../errors.ts'
import { timestamp } from '../kube/time.ts'
import type { KubeObject } from '../kube/types.ts'
import type { DeleteOptions } from './delete-options.ts'
import type { HubDeps } from './deps.ts'
import { retryStale } from './retry-stale.ts'
import { objectKey, servedAt, storedAt, type Target, targetDetails } from './target.ts'
import { finishTermination } from './terminate.ts'
import { readCurrent } from './update.ts'
import { storeRemove, storeUpdate } from './write.ts'

/** DeleteOptions, and reading them from a request, live in delete-options.ts. */
export { type DeleteOptions, type DeleteQuery, parseDeleteOptions } from './delete-options.ts'

function checkPreconditions(t: Target, obj: KubeObject, p: DeleteOptions['preconditions']): void {
  const name = obj.metadata.name ?? ''
  if (p?.uid !== undefined && p.uid !== null && p.uid !== obj.metadata.uid)
    throw conflict(
      t.info.resource,
      targetDetails(t, name),
      `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${obj.metadata.uid}`
    )
  if (
    p?.resourceVersion !== undefined &&
    p.resourceVersion !== null &&
    p.resourceVersion !== obj.metadata.resourceVersion
  )
    throw conflict(
      t.info.resource,
      targetDetails(t, name),
      `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion}`
    )
}

/**
 * Whether an object's `status.phase` says Terminating while its content goes: kube's Namespace,
 * and kcp's Workspace (whose phases are Scheduling, Initializing, Ready and Terminating).
 */
const showsTerminating = (obj: KubeObject) =>
  (obj.kind === 'Namespace' && obj.apiVersion === 'v1') ||
  (obj.kind === 'Workspace' && obj.apiVersion.startsWith('tenancy.kcp.io/'))

function marked(obj: KubeObject, now: string, terminating: boolean): KubeObject {
  const out: KubeObject = {
    ...obj,
    metadata: { ...obj.metadata, deletionTimestamp: now, deletionGracePeriodSeconds: 0 },
  }
  if (terminating && showsTerminating(obj))
    out.status = { ...((obj.status as Record<string, never>) ?? {}), phase: 'Terminating' }
  return out
}

export function deleteObject(deps: HubDeps, t: Target, opts: DeleteOptions): Promise<KubeObject> {
  return retryStale(() => deleteOnce(deps, t, opts))
}

async function deleteOnce(deps: HubDeps, t: Target, opts: DeleteOptions): Promise<KubeObject> {
  const current = await readCurrent(deps, t, t.name ?? '')
  checkPreconditions(t, current, opts.preconditions)
  const key = objectKey(t, current.metadata.name ?? '')
  const hooks = deps.hooks.for(t.info.group, t.info.resource)
  const hasFinalizers = (current.metadata.finalizers ?? []).length > 0
  if (hooks.beforeDelete && !opts.dryRun && !current.metadata.deletionTimestamp)
    await hooks.beforeDelete({ deps, space: t.space, baseUrl: opts.baseUrl }, current)
  if (hooks.terminates || hasFinalizers) {
    if (current.metadata.deletionTimestamp) return current
    const next = marked(current, timestamp(deps.now()), hooks.terminates === true)
    if (opts.dryRun) return next
    const stored = await storeUpdate(deps, key, { before: current, after: storedAt(t, next) })
    if (hooks.terminates)
      deps.background(
        withReservations([], () => finishTermination(deps, t.space, key, { baseUrl: opts.baseUrl }))
      )
    return servedAt(t, stored)
  }
  if (opts.dryRun) return current
  return servedAt(t, await storeRemove(deps, key, current, opts.propagationPolicy ?? 'Background'))
}
