/**
 * A status condition written by one step for a generation, after kube's condition conventions:
 * it is rewritten only when its status, reason, message or observedGeneration change, and its
 * lastTransitionTime moves only when its status does. The condition replaces any earlier one of
 * its type at the end of the list. Pure.
 */
import type { JsonObject } from './types.ts'

export type WantedCondition = {
  status: 'True' | 'False' | 'Unknown'
  reason: string
  message: string
}

/** Whether `conditions` already hold condition `type` as `want` for `generation`. */
export function conditionHolds(
  conditions: readonly JsonObject[],
  type: string,
  want: WantedCondition,
  generation: number
): boolean {
  const old = conditions.find((c) => c.type === type)
  return (
    !!old &&
    old.status === want.status &&
    old.reason === want.reason &&
    old.message === want.message &&
    old.observedGeneration === generation
  )
}

/** When a condition is written: for `generation`, at `now` (an RFC 3339 time). */
export type ConditionStamp = { generation: number; now: string }

/**
 * Condition `type` as `want` for `at.generation`, keeping the lastTransitionTime of the one in
 * `conditions` while its status holds, else `at.now`.
 */
export function conditionFor(
  conditions: readonly JsonObject[],
  type: string,
  want: WantedCondition,
  at: ConditionStamp
): JsonObject {
  const { generation, now } = at
  const old = conditions.find((c) => c.type === type)
  const kept = old?.status === want.status ? old.lastTransitionTime : undefined
  return {
    type,
    ...want,
    observedGeneration: generation,
    lastTransitionTime: typeof kept === 'string' ? kept : now,
  }
}

/** `conditions` with condition `type` set to `want` as `at` says. */
export function withCondition(
  conditions: readonly JsonObject[],
  type: string,
  want: WantedCondition,
  at: ConditionStamp
): JsonObject[] {
  const condition = conditionFor(conditions, type, want, at)
  return [...conditions.filter((c) => c.type !== type), condition]
}
