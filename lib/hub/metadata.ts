/**
 * Object metadata bookkeeping shared by every write: the fields a server owns on create (uid,
 * creationTimestamp, generation, the `kcp.io/cluster` annotation), what an update may not change
 * (name, namespace, uid, creationTimestamp, deletionTimestamp), and `metadata.generation`, which
 * moves only when something other than metadata and status changes.
 */

import { CLUSTER_ANNOTATION, type JsonValue, type KubeObject } from '../kube/types.ts'
import { canonicalJson } from '../patch/json-values.ts'

function specPart(obj: KubeObject): Record<string, unknown> {
  const { apiVersion: _a, kind: _k, metadata: _m, status: _s, ...rest } = obj
  return rest
}

/** Semantic equality of JSON values: key order and undefined members do not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b)
}

export function specChanged(before: KubeObject, after: KubeObject): boolean {
  return !jsonEqual(specPart(before), specPart(after))
}

/** Sets the server-owned fields of a new object. */
export function initMetadata(
  obj: KubeObject,
  opts: { uid: string; now: string; clusterId: string }
): KubeObject {
  const annotations = { ...(obj.metadata.annotations ?? {}), [CLUSTER_ANNOTATION]: opts.clusterId }
  const metadata = {
    ...obj.metadata,
    uid: opts.uid,
    creationTimestamp: opts.now,
    generation: 1,
    annotations,
  }
  delete metadata.resourceVersion
  delete metadata.deletionTimestamp
  delete metadata.deletionGracePeriodSeconds
  delete metadata.selfLink
  return { ...obj, metadata }
}

/**
 * Carries the immutable and server-owned metadata of `before` into `after`, and bumps generation
 * when the spec part changed.
 */
export function carryMetadata(before: KubeObject, after: KubeObject): KubeObject {
  const b = before.metadata
  const metadata = { ...after.metadata }
  metadata.name = b.name
  if (b.namespace !== undefined) metadata.namespace = b.namespace
  else delete metadata.namespace
  metadata.uid = b.uid
  metadata.creationTimestamp = b.creationTimestamp
  if (b.deletionTimestamp) metadata.deletionTimestamp = b.deletionTimestamp
  else delete metadata.deletionTimestamp
  if (b.deletionGracePeriodSeconds !== undefined)
    metadata.deletionGracePeriodSeconds = b.deletionGracePeriodSeconds
  const cluster = b.annotations?.[CLUSTER_ANNOTATION]
  if (cluster)
    metadata.annotations = { ...(metadata.annotations ?? {}), [CLUSTER_ANNOTATION]: cluster }
  const generation = b.generation ?? 1
  metadata.generation = specChanged(before, after) ? generation + 1 : generation
  delete metadata.selfLink
  return { ...after, metadata }
}

/** `after` with the status of `before` (main-resource writes may not change status). */
export function keepStatus(before: KubeObject, after: KubeObject): KubeObject {
  const out: KubeObject = { ...after }
  if (before.status === undefined) delete out.status
  else out.status = before.status as JsonValue
  return out
}

/**
 * `before` with only the status taken from `after` (status-subresource writes), and its
 * managedFields when `withFields` (an apply computed them for the status it wrote).
 */
export function takeStatus(before: KubeObject, after: KubeObject, withFields = false): KubeObject {
  const out: KubeObject = { ...before, metadata: { ...before.metadata } }
  if (after.status === undefined) delete out.status
  else out.status = after.status as JsonValue
  if (after.metadata.resourceVersion !== undefined)
    out.metadata.resourceVersion = after.metadata.resourceVersion
  if (withFields) {
    if (after.metadata.managedFields) out.metadata.managedFields = after.metadata.managedFields
    else delete out.metadata.managedFields
  }
  return out
}
