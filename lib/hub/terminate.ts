/**
 * Finishing the deletion of objects that own content (Namespaces, Workspaces, CRDs): run the kind's
 * finalize hook (which removes the content), then remove the object once no finalizers remain.
 * Runs in the background after the delete request and again from the resync timer for anything
 * still terminating, so an interrupted termination always completes.
 */
import type { KubeObject } from '../kube/types.ts'
import type { ObjectKey } from '../store/types.ts'
import type { HubDeps } from './deps.ts'
import type { Space } from './spaces.ts'
import { storeRemove } from './write.ts'

export async function finishTermination(
  deps: HubDeps,
  space: Space,
  key: ObjectKey,
  opts: { baseUrl: string }
): Promise<void> {
  const log = deps.log.child({ step: 'terminate', key })
  try {
    const obj = await deps.objects.get(key)
    if (!obj?.metadata.deletionTimestamp) return
    const finalize = deps.hooks.for(key.group, key.resource).finalize
    if (finalize) await finalize({ deps, space, baseUrl: opts.baseUrl }, obj)
    const latest: KubeObject | undefined = await deps.objects.get(key)
    if (!latest || (latest.metadata.finalizers ?? []).length > 0) return
    await storeRemove(deps, key, latest, 'Background')
    log.info('terminated')
  } catch (e) {
    log.warn('termination incomplete; the resync will retry', { error: e })
  }
}
