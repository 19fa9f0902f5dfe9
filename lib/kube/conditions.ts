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

/**
 * Condition `type` as `want` for `generation`, keeping the lastTransitionTime of the one in
 * `conditions` while its status holds; `now` an RFC 3339 time.
 */
export function conditionFor(
  conditions: readonly JsonObject[],
  type: string,
  want: WantedCondition,
  generation: number,
  now: string
): JsonObject {
  const old = conditions.find((c) => c.type === type)
  const kept = old?.status === want.status ? old.lastTransitionTime : undefined
  return {
    type,
    ...want,
    observedGeneration: generation,
    lastTransitionTime: typeof kept === 'string' ? kept : now,
  }
}

/** `conditions` with condition `type` set to `want` for `generation`; `now` an RFC 3339 time. */
export function withCondition(
  conditions: readonly JsonObject[],
  type: string,
  want: WantedCondition,
  generation: number,
  now: string
): JsonObject[] {
  const condition = conditionFor(conditions, type, want, generation, now)
  return [...conditions.filter((c) => c.type !== type), condition]
}
