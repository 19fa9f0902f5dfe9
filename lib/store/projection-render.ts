/**
 * renderProjected: the object a manifest entry stands for, as clients of the mailbox space see it.
 * The stored body (shared by every copy with the same content) plus what is particular to the
 * copy: `apiVersion` from the entry's group and version, name and namespace from the entry's key,
 * and metadata uid, resourceVersion, creationTimestamp, generation and the `kcp.io/cluster`
 * annotation naming the mailbox. A state of this copy (same uid; projection-state.ts) adds what
 * the edge reported: `.status` (its `observedGeneration` the reported one), the associated objects
 * and any problem as annotations (metadata, because they describe the copy's whereabouts at the
 * edge and are no part of the kind's status schema), and the resourceVersion becomes the larger of
 * the entry's and the state's. A tombstone (`entry.removing`) is rendered as an object being
 * deleted: `deletionTimestamp` the time the center recorded the removal and the finalizer
 * EDGE_REMOVAL_FINALIZER (lib/deletion/lifecycle.ts), which only the edge's confirmation lifts
 * (the entry then goes, with a DELETED event). Pure and deterministic; the result is a deep copy,
 * so callers may change it without touching the cached body.
 */
import { withEdgeRemovalFinalizer } from '../deletion/lifecycle.ts'
import {
  CLUSTER_ANNOTATION,
  type JsonObject,
  type KubeObject,
  type ObjectMeta,
} from '../kube/types.ts'
import { cloneJson } from '../patch/json-values.ts'
import type { RenderProjected, StoredCopyState } from './projection-types.ts'

/** Annotation on a copy listing the objects it owns at the edge (compact JSON). */
export const ASSOCIATED_ANNOTATION = 'edge.kcp.io/associated'
/** Annotation on a copy the edge could not apply: `<reason>: <message>`. */
export const SYNC_PROBLEM_ANNOTATION = 'edge.kcp.io/sync-problem'

function stateAnnotations(state: StoredCopyState): Record<string, string> {
  const out: Record<string, string> = {}
  if (state.associated?.length) out[ASSOCIATED_ANNOTATION] = JSON.stringify(state.associated)
  if (state.problem) {
    out[SYNC_PROBLEM_ANNOTATION] = `${state.problem.reason}: ${state.problem.message}`
  }
  return out
}

export const renderProjected: RenderProjected = (mailbox, entry, body, state) => {
  // A JSON copy: a stored body is plain JSON, and copying it member by member costs a third of
  // structuredClone's serialize-and-rebuild (every watch event of a copy renders one).
  const copy = cloneJson(body as unknown as JsonObject) as unknown as KubeObject
  const own = state?.uid === entry.uid ? state : undefined
  const metadata: ObjectMeta = {
    ...copy.metadata,
    name: entry.name,
    uid: entry.uid,
    resourceVersion: String(Math.max(entry.rv, own?.rv ?? 0)),
    creationTimestamp: entry.created,
    generation: entry.generation,
    annotations: {
      ...copy.metadata?.annotations,
      ...(own ? stateAnnotations(own) : {}),
      [CLUSTER_ANNOTATION]: mailbox,
    },
  }
  if (entry.namespace) metadata.namespace = entry.namespace
  else delete metadata.namespace
  if (entry.removing) {
    metadata.deletionTimestamp = entry.removing
    metadata.deletionGracePeriodSeconds = 0
    metadata.finalizers = withEdgeRemovalFinalizer(metadata.finalizers)
  }
  const apiVersion = entry.group ? `${entry.group}/${entry.version}` : entry.version
  const out: KubeObject = { ...copy, apiVersion, metadata }
  if (own) {
    const status = cloneJson(own.status as JsonObject) as typeof own.status
    if (own.observedGeneration !== undefined) status.observedGeneration = own.observedGeneration
    if (Object.keys(status).length > 0) out.status = status
    else delete out.status
  }
  return out
}
