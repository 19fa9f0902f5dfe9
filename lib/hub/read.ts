/**
 * Reads: get one object, list a collection (one namespace, all namespaces, or across every space
 * for admins) with label and field selectors and limit/continue paging. Objects are served at the
 * version the client addressed.
 */
import { notFound } from '../errors.ts'
import type { KubeObject } from '../kube/types.ts'
import type { ListResult } from '../store/types.ts'
import type { HubDeps } from './deps.ts'
import { objectKey, servedAt, type Target, targetDetails } from './target.ts'

export type ListQuery = {
  predicate?: (obj: KubeObject) => boolean
  limit?: number
  continue?: string
}

export async function getObject(deps: HubDeps, t: Target): Promise<KubeObject> {
  const name = t.name ?? ''
  const obj = await deps.objects.get(objectKey(t, name))
  if (!obj) throw notFound(t.info.resource, targetDetails(t, name))
  return servedAt(t, obj)
}

/** Lists in `t.space` (or every space when `allSpaces`). */
export async function listObjects(
  deps: HubDeps,
  t: Target,
  q: ListQuery,
  allSpaces = false
): Promise<ListResult> {
  const res = await deps.objects.list({
    cluster: allSpaces ? '*' : t.space.id,
    group: t.info.group,
    resource: t.info.resource,
    ...(t.info.namespaced && t.namespace ? { namespace: t.namespace } : {}),
    ...(q.predicate ? { predicate: q.predicate } : {}),
    ...(q.limit ? { limit: q.limit } : {}),
    ...(q.continue ? { continue: q.continue } : {}),
  })
  return { ...res, items: res.items.map((o) => servedAt(t, o)) }
}
