/**
 * Reads: get one object, list a collection (one namespace, all namespaces, or across every space
 * for admins) with label and field selectors and limit/continue paging. Objects are served at the
 * version the client addressed. The resourceVersion a read names follows kube's semantics for get
 * and list (k8s.io/apiserver storage/cacher: delegator.go, watch_cache.go): "" is the latest, "0"
 * any version, and a number N "not older than N" — served from the latest state once the store
 * has reached N, which is waited for briefly and then refused with the TooLarge 504
 * (resource-version.ts). A list that asks for exactly N (resourceVersionMatch=Exact, or, as kube
 * still reads it, a resourceVersion with a limit and no continue) can be served only while the
 * collection's latest state is its state at N: the store keeps no snapshots, so when the change
 * log holds a change of the collection after N (or no longer reaches back to N) the answer is
 * kube's 410 Expired, after which clients relist from the latest. (A change made within the
 * change log's settle window is not seen yet; the list then includes it, and a watch from N
 * delivers it once more.)
 */
import { badRequest, expired, notFound } from '../errors.ts'
import type { KubeObject } from '../kube/types.ts'
import type { CollectionRef, ListResult } from '../store/types.ts'
import type { HubDeps } from './deps.ts'
import { checkListOptions } from './list-options.ts'
import { parseResourceVersion, waitForResourceVersion } from './resource-version.ts'
import { objectKey, servedAt, type Target, targetDetails } from './target.ts'

export type ListQuery = {
  predicate?: (obj: KubeObject) => boolean
  /** Page size; zero or negative is no limit, as in kube. */
  limit?: number
  continue?: string
  resourceVersion?: string
  resourceVersionMatch?: string
  /** Only to refuse it: kube forbids sendInitialEvents on a list. */
  sendInitialEvents?: boolean
  /** Answer with a resourceVersion a watch can resume from (lib/store/list-marks.ts). */
  watchable?: boolean
  /** Only the items are used (the hub client's lists): no resourceVersion is read for them. */
  itemsOnly?: boolean
}

/** Gets the object; with a resourceVersion, once the store has reached it. */
export async function getObject(
  deps: HubDeps,
  t: Target,
  resourceVersion?: string
): Promise<KubeObject> {
  const rv = parseResourceVersion(resourceVersion)
  if (rv > 0n) await waitForResourceVersion(deps.objects, rv)
  const name = t.name ?? ''
  const obj = await deps.objects.get(objectKey(t, name))
  if (!obj) throw notFound(t.info.resource, targetDetails(t, name))
  return servedAt(t, obj)
}

function collectionOf(t: Target, allSpaces: boolean): CollectionRef {
  return {
    cluster: allSpaces ? '*' : t.space.id,
    group: t.info.group,
    resource: t.info.resource,
    ...(t.info.namespaced && t.namespace ? { namespace: t.namespace } : {}),
  }
}

/** Whether kube would serve this list at exactly its resourceVersion. */
function asksExact(q: ListQuery, rv: bigint): boolean {
  if (q.resourceVersionMatch === 'Exact') return true
  return !q.resourceVersionMatch && rv > 0n && (q.limit ?? 0) > 0 && !q.continue
}

/** 410 unless the collection has not changed since `rv` (so its latest state is its state then). */
async function checkUnchangedSince(deps: HubDeps, c: CollectionRef, rv: bigint): Promise<void> {
  const res = await deps.objects.changes({ ...c, sinceRv: Number(rv), limit: 1 })
  if (res.events.length > 0) throw expired('The resourceVersion for the provided list is too old.')
}

/** Lists in `t.space` (or every space when `allSpaces`). */
export async function listObjects(
  deps: HubDeps,
  t: Target,
  q: ListQuery,
  allSpaces = false
): Promise<ListResult> {
  checkListOptions({ watch: false, ...q })
  if (q.continue && q.resourceVersion && q.resourceVersion !== '0')
    throw badRequest('specifying resource version is not allowed when using continue')
  const rv = parseResourceVersion(q.resourceVersion)
  const collection = collectionOf(t, allSpaces)
  let exactAt: bigint | undefined
  if (rv > 0n) {
    const current = await waitForResourceVersion(deps.objects, rv)
    if (asksExact(q, rv)) {
      if (BigInt(current) > rv) await checkUnchangedSince(deps, collection, rv)
      exactAt = rv
    }
  }
  const res = await deps.objects.list({
    ...collection,
    ...(q.watchable && exactAt === undefined ? { watchable: true } : {}),
    ...(q.itemsOnly && rv === 0n ? { itemsOnly: true } : {}),
    ...(q.predicate ? { predicate: q.predicate } : {}),
    ...(q.limit && q.limit > 0 ? { limit: q.limit } : {}),
    ...(q.continue ? { continue: q.continue } : {}),
  })
  return {
    ...res,
    ...(exactAt !== undefined ? { resourceVersion: String(exactAt) } : {}),
    items: res.items.map((o) => servedAt(t, o)),
  }
}
