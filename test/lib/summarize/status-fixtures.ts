/**
 * Workload statuses as edges report them, for the summarize tests (lib/summarize/ and the
 * summarize step's parts): status conditions, and a Deployment's status as kube's deployment
 * controller writes it once rolled out and once its rollout is past its progress deadline (the old
 * pods still available, the new ones not).
 */
import type { JsonObject } from '../../../lib/kube/types.ts'

/** A condition of `type` at `status`, with whatever else is given (reason, message, times). */
export const condition = (type: string, status: string, more: JsonObject = {}): JsonObject => ({
  type,
  status,
  ...more,
})

/** A condition with its reason and message, as controllers write them. */
export const reasoned = (type: string, status: string, reason: string, message = '') =>
  condition(type, status, { reason, message })

/** A status holding `conditions` only. */
export const withConditions = (...conditions: JsonObject[]): JsonObject => ({ conditions })

/** The message kube's controller gives a rollout past its deadline. */
export const TIMED_OUT = 'ReplicaSet "web-1" has timed out progressing.'

/** A Deployment of `replicas` rolled out, observed at the edge's `observedGeneration`. */
export const rolledOut = (replicas: number, observedGeneration: number): JsonObject => ({
  observedGeneration,
  replicas,
  updatedReplicas: replicas,
  readyReplicas: replicas,
  availableReplicas: replicas,
  conditions: [
    reasoned('Available', 'True', 'MinimumReplicasAvailable'),
    reasoned('Progressing', 'True', 'NewReplicaSetAvailable'),
  ],
})

/** The same Deployment after a new version's pods made no progress past the deadline. */
export const pastDeadline = (replicas: number, observedGeneration: number): JsonObject => ({
  observedGeneration,
  replicas: replicas + 1,
  updatedReplicas: 1,
  readyReplicas: replicas,
  availableReplicas: replicas,
  unavailableReplicas: 1,
  conditions: [
    reasoned('Available', 'True', 'MinimumReplicasAvailable'),
    reasoned('Progressing', 'False', 'ProgressDeadlineExceeded', TIMED_OUT),
  ],
})
