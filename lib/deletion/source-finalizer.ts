/**
 * Lifting the edge-removal finalizer from a workload object (lifecycle.ts, state 5), the one write
 * that lets a source's deletion finish: on a fresh read of the same uid that still holds the
 * finalizer, an update with the read's resourceVersion as precondition and the finalizer removed
 * (the others kept). The caller (functions/reconcile-summarize/removals.ts) decides when: no
 * mailbox holds an entry sourced from the object's space for its key.
 */
import { reserveFor } from '../budget/reservation.ts'
import { isApiError } from '../errors.ts'
import type { HubClient } from '../hub/client.ts'
import { DECIDING_UPDATE_COST } from '../hub/write.ts'
import type { SourceObject } from '../placement/types.ts'
import { hasEdgeRemovalFinalizer, withoutEdgeRemovalFinalizer } from './lifecycle.ts'

/**
 * What one release reserves of the invocation's budget before it reads (lib/budget/): the read,
 * and the update that may decide the removal with the removal itself.
 */
export const RELEASE_COST = 2 + DECIDING_UPDATE_COST

/**
 * True when written, false when there was nothing to lift or the object moved. Refused (429,
 * nothing read or written) when the invocation has no room left for all of it.
 */
export function releaseFinalizer(
  client: HubClient,
  spaceId: string,
  source: SourceObject
): Promise<boolean> {
  return reserveFor(RELEASE_COST, () => release(client, spaceId, source))
}

async function release(client: HubClient, spaceId: string, source: SourceObject): Promise<boolean> {
  const gvr = { group: source.group, version: source.version, resource: source.resource }
  const m = source.object.metadata
  const namespace = source.namespaced ? m.namespace : undefined
  let current: Awaited<ReturnType<HubClient['get']>>
  try {
    current = await client.get(spaceId, gvr, m.name ?? '', namespace)
  } catch (e) {
    if (isApiError(e) && e.code === 404) return false
    throw e
  }
  if (!current || current.metadata.uid !== m.uid || !hasEdgeRemovalFinalizer(current.metadata))
    return false
  const rest = withoutEdgeRemovalFinalizer(current.metadata.finalizers)
  const { finalizers: _, ...meta } = current.metadata
  try {
    await client.update(spaceId, gvr, {
      ...current,
      metadata: rest.length > 0 ? { ...meta, finalizers: rest } : meta,
    })
  } catch (e) {
    // Gone or changed meanwhile (another key of the space released it first): nothing to do now;
    // what still waits is seen again by the next run.
    if (isApiError(e) && (e.code === 404 || e.code === 409)) return false
    throw e
  }
  return true
}
