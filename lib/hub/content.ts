/**
 * Removing the content of a namespace, of a custom resource type, or of a whole space. Each object
 * goes through the normal removal (owner index, dependents); objects holding finalizers are marked
 * for deletion and make the removal report "not done", so the caller retries later instead of
 * deleting the container under them. Removal stops while the invocation's subrequest ceiling has
 * no room for another object (lib/budget/), also reporting "not done": the cron finishes it.
 */
import { hasRoom } from '../budget/frames.ts'
import { OBJECT_COST_ESTIMATE } from '../budget/limits.ts'
import type { ResourceInfo } from '../kube/resource-info.ts'
import { timestamp } from '../kube/time.ts'
import type { KubeObject } from '../kube/types.ts'
import type { ObjectKey } from '../store/types.ts'
import type { HubDeps } from './deps.ts'
import { storeRemove, storeUpdate } from './write.ts'

type Scope = { cluster: string; namespace?: string }

async function removeOne(deps: HubDeps, key: ObjectKey, obj: KubeObject): Promise<boolean> {
  if ((obj.metadata.finalizers ?? []).length > 0) {
    if (!obj.metadata.deletionTimestamp) {
      const metadata = { ...obj.metadata, deletionTimestamp: timestamp(deps.now()) }
      await storeUpdate(deps, key, { before: obj, after: { ...obj, metadata } })
    }
    return false
  }
  await storeRemove(deps, key, obj, 'Background')
  return true
}

/** Removes every object of `info` in the scope; true when nothing is left behind. */
export async function removeAllOf(
  deps: HubDeps,
  info: ResourceInfo,
  scope: Scope
): Promise<boolean> {
  const ref = { cluster: scope.cluster, group: info.group, resource: info.resource }
  const list = await deps.objects.list(
    scope.namespace === undefined ? ref : { ...ref, namespace: scope.namespace }
  )
  let done = true
  for (const obj of list.items) {
    if (!hasRoom(OBJECT_COST_ESTIMATE)) return false
    const key: ObjectKey = {
      ...ref,
      namespace: obj.metadata.namespace ?? '',
      name: obj.metadata.name ?? '',
    }
    try {
      if (!(await removeOne(deps, key, obj))) done = false
    } catch (e) {
      deps.log.warn('content removal failed', { key, error: e })
      done = false
    }
  }
  return done
}

/** Removes all objects of the given resources; true when everything is gone. */
export async function removeContent(
  deps: HubDeps,
  resources: ResourceInfo[],
  scope: Scope
): Promise<boolean> {
  let done = true
  for (const info of resources) {
    if (!hasRoom(OBJECT_COST_ESTIMATE)) return false
    if (!(await removeAllOf(deps, info, scope))) done = false
  }
  return done
}
