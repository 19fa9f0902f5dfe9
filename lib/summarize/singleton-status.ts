/**
 * The singleton status return (KubeStellar v0.8): a workload object placed on one edge carries
 * the status that edge reports of its copy, stated so that kube's own tools can wait on it in the
 * center. For every kind the summarize step knows the readiness of (Deployment, StatefulSet,
 * DaemonSet, ReplicaSet, Job, Pod) and any other:
 * - It is returned once the edge reported on the copy's current generation (copy-condition.ts
 *   gives `reported` then): running it (applied, ready) or failed by the kind's readiness — a
 *   Deployment past its progress deadline, a Job Failed, a Pod Failed — since that status is the
 *   one kube's tools stop on (`kubectl rollout status` fails on Progressing
 *   ProgressDeadlineExceeded, but only once `observedGeneration` reaches the object's
 *   generation). A report of an older generation, none, or an agent's problem returns nothing:
 *   the object's status stays as it was, so its `observedGeneration` stays below a newer
 *   generation and `rollout status` keeps waiting for the spec update to be observed. (Whether the
 *   copy holds the object's current spec at all is the caller's, current-spec.ts.)
 * - Its generations are the center object's: the edge's `observedGeneration` counts the edge's own
 *   generations of its copy (a copy created there later, or edited there, differs), so it is
 *   replaced by the object's generation — at the top of the status and in each condition carrying
 *   one, since `kubectl wait --for=condition` compares a condition's own before the status's.
 *   Only fields the report has are stated: a Job's status has none, and a field the center's schema
 *   does not know would be refused.
 * Pure.
 */
import type { JsonObject, JsonValue, KubeObject } from '../kube/types.ts'
import { isJsonObject } from '../patch/json-values.ts'

function restated(v: JsonValue, generation: number): JsonValue {
  if (!isJsonObject(v) || !('observedGeneration' in v)) return v
  return { ...v, observedGeneration: generation }
}

/** The copy's reported status as the object carries it: in the object's generation terms. */
export function singletonStatus(reported: KubeObject, generation: number | undefined): JsonObject {
  const raw = reported.status as JsonValue | undefined
  const status: JsonObject = isJsonObject(raw) ? { ...raw } : {}
  if (generation === undefined) return status
  if ('observedGeneration' in status) status.observedGeneration = generation
  if (Array.isArray(status.conditions))
    status.conditions = status.conditions.map((c) => restated(c, generation))
  return status
}
