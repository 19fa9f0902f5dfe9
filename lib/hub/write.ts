/**
 * The low-level write path every verb goes through: store the object, keep the owner index in
 * line, and remove objects whose deletion has been decided (no finalizers left). Garbage
 * collection of dependents runs in the background after a hard delete, as kube's Background
 * propagation does; Foreground deletes dependents first; Orphan only drops the owner references.
 * Every create takes its place in the SpaceQuotas holding its space first, and every removal
 * gives it back (lib/quota/admission.ts); a write of a SpaceQuota moves the `quotas` epoch, one
 * of an RBAC object drops the hub's RBAC policy.
 */
import { withReservations } from '../budget/frames.ts'
import { reserveFor } from '../budget/reservation.ts'
import { isApiError, isStaleWrite, StaleWriteError } from '../errors.ts'
import { timestamp } from '../kube/time.ts'
import type { KubeObject, ObjectMeta } from '../kube/types.ts'
import { freeRemoved, reserveCreate, storedNothing } from '../quota/admission.ts'
import { quotaWritten } from '../quota/quotas.ts'
import { RBAC_GROUP } from '../rbac/rbac-objects.ts'
import type { ObjectKey } from '../store/types.ts'
import { OBJECT_DELETE_COST, OBJECT_WRITE_COST } from '../store/write-costs.ts'
import type { HubDeps } from './deps.ts'
import { dependentsOf, dropIndexEntry, updateOwnerIndex } from './owner-index.ts'
import { retryStale } from './retry-stale.ts'
import { collectionOf, noteCollection } from './space-collections.ts'
import { CRD_GROUP, invalidateRegistry } from './space-registry.ts'
import type { Space } from './spaces.ts'

export type Propagation = 'Background' | 'Foreground' | 'Orphan'

/**
 * A CRD write changes what its space serves: drop the cached registry. A SpaceQuota write changes
 * what every create and delete must count (lib/quota/quotas.ts). An RBAC write changes what the
 * authorizer of an edge-cluster hub allows (lib/rbac/rbac-cache.ts).
 */
async function touched(deps: HubDeps, key: ObjectKey): Promise<void> {
  if (key.group === CRD_GROUP) invalidateRegistry(deps, key.cluster)
  if (key.group === RBAC_GROUP) deps.caches.rbac.forget()
  await quotaWritten(deps, key)
}

/**
 * Where a create goes: its space, and how it meets the SpaceQuotas there: `enforceQuota` refuses
 * one past a bound (the API's writes); without it the create is only counted (the steps' own).
 */
export type CreateAt = { space: Space; enforceQuota?: boolean }

export async function storeCreate(
  deps: HubDeps,
  key: ObjectKey,
  obj: KubeObject,
  at: CreateAt
): Promise<KubeObject> {
  // Before the object: a reader of the whole space trusts the index (space-collections.ts).
  await noteCollection(deps, at.space, collectionOf(key.group, key.resource))
  const reserved = await reserveCreate(deps, at.space, key, at.enforceQuota === true)
  let created: KubeObject
  try {
    created = await deps.objects.create(key, obj)
  } catch (e) {
    if (storedNothing(e)) await reserved.release()
    throw e
  }
  await touched(deps, key)
  await updateOwnerIndex(deps.kv, key, undefined, created)
  return created
}

/** A stored replacement: `after` over `before`, guarded by `expectedRv` (default `before`'s). */
export type StoreReplace = { before: KubeObject; after: KubeObject; expectedRv?: string }

/**
 * Replaces `r.before` by `r.after` with `r.before`'s resourceVersion as precondition (or
 * `r.expectedRv`). When the result is being deleted and has no finalizers left, it is removed for
 * real.
 */
export async function storeUpdate(
  deps: HubDeps,
  key: ObjectKey,
  r: StoreReplace
): Promise<KubeObject> {
  const { before, after, expectedRv = before.metadata.resourceVersion ?? '' } = r
  // Kinds that own content are removed by their termination, once the content is gone.
  const removes = decided(after) && !deps.hooks.for(key.group, key.resource).terminates
  const write = async () => {
    const updated = await deps.objects.update(key, after, expectedRv)
    await touched(deps, key)
    await updateOwnerIndex(deps.kv, key, before, updated)
    if (removes && decided(updated)) return removeDecided(deps, key, updated)
    return updated
  }
  // An update that lifts the last finalizer of an object being deleted is two writes: both fit
  // the budget or neither starts (a refusal there used to leave it stored with nothing to wait for).
  return removes ? reserveFor(DECIDING_UPDATE_COST, write) : write()
}

/**
 * What an update deciding its object's removal reserves: the update, the delete, a read again
 * after a stale delete, and the bookkeeping around them (collection marker, owner index, quota).
 */
export const DECIDING_UPDATE_COST = OBJECT_WRITE_COST + OBJECT_DELETE_COST + 12

/** Being deleted with no finalizer left: nothing keeps the object any more. */
const decided = (obj: KubeObject) =>
  !!obj.metadata.deletionTimestamp && (obj.metadata.finalizers ?? []).length === 0

/**
 * Removes an object whose deletion the write just decided. The write has landed, so a concurrent
 * writer in between must not turn it into a failure: read again and remove it if it is still
 * decided (a finalizer added since keeps it); gone already is done. The retries are retryStale's.
 */
function removeDecided(deps: HubDeps, key: ObjectKey, obj: KubeObject): Promise<KubeObject> {
  let current = obj
  return retryStale(async () => {
    try {
      return await storeRemove(deps, key, current, 'Background')
    } catch (e) {
      const gone = isApiError(e) && e.code === 404
      if (!gone && !isStaleWrite(e)) throw e
      const fresh = await deps.objects.get(key)
      if (!fresh) return current
      if (!decided(fresh)) return fresh
      current = fresh
      // Removed and written again since (gone, yet there): as stale as a moved resourceVersion.
      throw gone ? new StaleWriteError(key.resource, { name: key.name }, 'replaced meanwhile') : e
    }
  })
}

/** Deletes the stored object now and collects its dependents as `policy` says. */
export async function storeRemove(
  deps: HubDeps,
  key: ObjectKey,
  obj: KubeObject,
  policy: Propagation
): Promise<KubeObject> {
  const uid = obj.metadata.uid
  if (policy === 'Foreground' && uid) await collectDependents(deps, key.cluster, uid, 'Foreground')
  const gone = await deps.objects.delete(key, obj.metadata.resourceVersion)
  await touched(deps, key)
  await freeRemoved(deps, key)
  await updateOwnerIndex(deps.kv, key, obj, undefined)
  if (uid && policy !== 'Foreground')
    // Past the write: it draws on no reservation of the write that started it.
    deps.background(withReservations([], () => collectDependents(deps, key.cluster, uid, policy)))
  return gone
}

/** Deletes (or orphans) the dependents of `ownerUid`; each one re-checked before acting. */
export async function collectDependents(
  deps: HubDeps,
  cluster: string,
  ownerUid: string,
  policy: Propagation
): Promise<void> {
  for (const key of await dependentsOf(deps.kv, cluster, ownerUid)) {
    try {
      await releaseDependent(deps, key, ownerUid, policy)
    } catch (e) {
      if (isApiError(e) && (e.code === 404 || e.code === 409)) continue
      deps.log.warn('garbage collection failed', { key, ownerUid, error: e })
    }
  }
}

async function releaseDependent(
  deps: HubDeps,
  key: ObjectKey,
  ownerUid: string,
  policy: Propagation
): Promise<void> {
  const obj = await deps.objects.get(key)
  const refs = obj?.metadata.ownerReferences ?? []
  if (!obj || !refs.some((r) => r.uid === ownerUid)) {
    await dropIndexEntry(deps.kv, ownerUid, key)
    return
  }
  const rest = refs.filter((r) => r.uid !== ownerUid)
  if (policy === 'Orphan' || rest.length > 0) {
    const metadata: ObjectMeta = { ...obj.metadata, ownerReferences: rest }
    if (rest.length === 0) delete metadata.ownerReferences
    await storeUpdate(deps, key, { before: obj, after: { ...obj, metadata } })
    return
  }
  if ((obj.metadata.finalizers ?? []).length > 0) {
    if (obj.metadata.deletionTimestamp) return
    const metadata = { ...obj.metadata, deletionTimestamp: timestamp(deps.now()) }
    await storeUpdate(deps, key, { before: obj, after: { ...obj, metadata } })
    return
  }
  await storeRemove(deps, key, obj, policy)
}
