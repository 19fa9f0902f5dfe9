/**
 * What the translate step reads of a workload object, apart from what the control plane itself
 * writes on it. The summarize step writes the executing count and the status source (center-only
 * annotations), the edge-removal finalizer, and its own managedFields entry; none of these reach a
 * copy, a merge or a selection (annotations.ts `travels`; merge.ts takes finalizers only to drop
 * them and orders sources by their authors' managedFields times, never the steps'). Every write
 * also moves the resourceVersion. So two versions of an object whose `translateInput` is equal give
 * every mailbox the same copy, and a watcher (the relay, lib/relay/event-keys.ts) need not wake the
 * translate step for the second. The status is kept: the merge of several spaces compares it.
 */
import { EDGE_REMOVAL_FINALIZER } from '../deletion/lifecycle.ts'
import type { KubeObject, ObjectMeta } from '../kube/types.ts'
import { CONTROLLER_MANAGER } from '../reconcile/types.ts'
import { EXECUTING_COUNT_ANNOTATION, STATUS_FROM_ANNOTATION } from './annotations.ts'

/** `obj` without its resourceVersion and what the steps write on workload objects. */
export function translateInput(obj: KubeObject): KubeObject {
  const m = obj.metadata ?? {}
  const { resourceVersion: _rv, managedFields, finalizers, annotations, ...rest } = m
  const meta: ObjectMeta = { ...rest }
  const authors = (managedFields ?? []).filter((f) => f.manager !== CONTROLLER_MANAGER)
  if (authors.length > 0) meta.managedFields = authors
  const kept = (finalizers ?? []).filter((f) => f !== EDGE_REMOVAL_FINALIZER)
  if (kept.length > 0) meta.finalizers = kept
  const {
    [EXECUTING_COUNT_ANNOTATION]: _count,
    [STATUS_FROM_ANNOTATION]: _from,
    ...others
  } = annotations ?? {}
  if (Object.keys(others).length > 0) meta.annotations = others
  return { ...obj, metadata: meta }
}
