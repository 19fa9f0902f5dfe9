/**
 * What the summarize step writes on a workload object: the annotation
 * `kubestellar.io/executing-count` (how many destinations run it: copy applied or ready, counted
 * over every placement of the space that selects it, so two placements sharing an object agree),
 * removed from objects no placement selects any more; the annotation `edge.kcp.io/status-from`
 * (where its status is from: returned-status.ts), likewise; the finalizer
 * `edge.kcp.io/edge-removal` (EDGE_REMOVAL_FINALIZER) once the object has a copy in some mailbox
 * (so its deletion waits for the edges: lib/deletion/lifecycle.ts, removals.ts lifts it); and the
 * status returned from its edges (returned-status.ts: the singleton return of KubeStellar v0.8,
 * or the status aggregated over several edges), through the status subresource of kinds that
 * have one. A want without a status leaves the status as it was. Writes happen only on a
 * difference, on a freshly read object, with its resourceVersion as precondition; a status the
 * hub refuses (422: a field its schema does not know) is logged and left, so it does not block
 * the count.
 */
import { reserveFor } from '../../lib/budget/reservation.ts'
import { hasEdgeRemovalFinalizer, withEdgeRemovalFinalizer } from '../../lib/deletion/lifecycle.ts'
import { isApiError } from '../../lib/errors.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import type { JsonObject, KubeObject } from '../../lib/kube/types.ts'
import type { Logger } from '../../lib/log.ts'
import { canonicalJson } from '../../lib/patch/json-values.ts'
import {
  EXECUTING_COUNT_ANNOTATION,
  STATUS_FROM_ANNOTATION,
} from '../../lib/placement/annotations.ts'
import type { SourceObject } from '../../lib/placement/types.ts'
import { OBJECT_WRITE_COST } from '../../lib/store/write-costs.ts'

export type WorkloadWant = {
  /** undefined: the annotation should be absent (no placement selects the object). */
  count?: number
  /** The status source annotation (STATUS_FROM_ANNOTATION); undefined: absent. */
  statusFrom?: string
  /** The status to return (returned-status.ts), when the kind has a status subresource. */
  status?: JsonObject
  /** Add the edge-removal finalizer (the object has a copy in some mailbox). */
  finalizer?: boolean
}

export type WorkloadDeps = { client: HubClient; log: Logger }

const annotationOf = (o: KubeObject) => o.metadata.annotations?.[EXECUTING_COUNT_ANNOTATION]

function annotationNeeded(o: KubeObject, want: WorkloadWant): boolean {
  const finalizerMissing = want.finalizer === true && !hasEdgeRemovalFinalizer(o.metadata)
  return (
    finalizerMissing ||
    annotationOf(o) !== (want.count === undefined ? undefined : String(want.count)) ||
    o.metadata.annotations?.[STATUS_FROM_ANNOTATION] !== want.statusFrom
  )
}

function statusNeeded(o: KubeObject, want: WorkloadWant): boolean {
  return want.status !== undefined && canonicalJson(o.status ?? {}) !== canonicalJson(want.status)
}

function withAnnotation(o: KubeObject, want: WorkloadWant): KubeObject {
  const { count, statusFrom } = want
  const annotations = { ...(o.metadata.annotations ?? {}) }
  if (count === undefined) delete annotations[EXECUTING_COUNT_ANNOTATION]
  else annotations[EXECUTING_COUNT_ANNOTATION] = String(count)
  if (statusFrom === undefined) delete annotations[STATUS_FROM_ANNOTATION]
  else annotations[STATUS_FROM_ANNOTATION] = statusFrom
  const { annotations: _, ...rest } = o.metadata
  const metadata = Object.keys(annotations).length > 0 ? { ...rest, annotations } : rest
  if (want.finalizer && !hasEdgeRemovalFinalizer(o.metadata))
    metadata.finalizers = withEdgeRemovalFinalizer(o.metadata.finalizers)
  return { ...o, metadata }
}

/** Brings one workload object to `want`; returns what it wrote ([] when nothing). */
export async function writeWorkload(
  deps: WorkloadDeps,
  spaceId: string,
  source: SourceObject,
  want: WorkloadWant
): Promise<string[]> {
  if (!annotationNeeded(source.object, want) && !statusNeeded(source.object, want)) return []
  // Its reads and writes reserved at once: past the budget the object is refused before it is
  // read (the key deferred), never read with no room left to write.
  return reserveFor(WORKLOAD_WRITE_COST, () => write(deps, spaceId, source, want))
}

/**
 * What one object's writes reserve (lib/budget/): two reads (one again after a conflict), two
 * attempts at the count and one at the status.
 */
const WORKLOAD_WRITE_COST = 2 + 3 * OBJECT_WRITE_COST

async function write(
  deps: WorkloadDeps,
  spaceId: string,
  source: SourceObject,
  want: WorkloadWant
): Promise<string[]> {
  const gvr = { group: source.group, version: source.version, resource: source.resource }
  const m = source.object.metadata
  const namespace = source.namespaced ? m.namespace : undefined
  const fresh = async () => {
    const o = await deps.client.get(spaceId, gvr, m.name ?? '', namespace)
    return o && !o.metadata.deletionTimestamp && o.metadata.uid === m.uid ? o : undefined
  }
  let current = await fresh()
  if (!current) return []
  const done: string[] = []
  // Other keys of the space write the same object (the count is the same for all): a conflict is
  // read again and retried once, instead of failing the key.
  for (let attempt = 0; current && annotationNeeded(current, want); attempt++) {
    try {
      current = await deps.client.update(spaceId, gvr, withAnnotation(current, want))
      done.push('count')
    } catch (e) {
      if (!isApiError(e) || e.code !== 409 || attempt > 0) throw e
      current = await fresh()
    }
  }
  if (!current) return done
  if (want.status && statusNeeded(current, want)) {
    try {
      await deps.client.updateStatus(spaceId, gvr, { ...current, status: want.status })
      done.push('status')
    } catch (e) {
      if (!isApiError(e) || e.code !== 422) throw e
      deps.log.warn('status not returned', { spaceId, name: m.name, error: e })
    }
  }
  return done
}

/** Whether an object carries either annotation (so a deselected one can be cleaned). */
export const hasExecutingCount = (o: KubeObject) =>
  annotationOf(o) !== undefined || o.metadata.annotations?.[STATUS_FROM_ANNOTATION] !== undefined
