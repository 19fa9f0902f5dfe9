/**
 * The last check of every patch engine: the patched object may be nested at most
 * MAX_NESTING_DEPTH levels (managedFields a little more, see `nestedTooDeep`; 422) and its JSON
 * may not exceed MAX_PATCHED_OBJECT_BYTES (413, the answer the store would give). Merges cannot
 * grow an object past the sum of their inputs, so one check of the result bounds them; JSON patch
 * also checks before each operation (json-patch-budget.ts). One walk measures both (depth first).
 */
import type { JsonValue } from '../kube/types.ts'
import {
  KUBE_DEPTH,
  MAX_PATCHED_OBJECT_BYTES,
  patchedTooDeep,
  patchedTooLarge,
} from './json-limits.ts'
import { measureJson } from './json-measure.ts'

const LIMITS = { ...KUBE_DEPTH, maxBytes: MAX_PATCHED_OBJECT_BYTES, depthFirst: true }

/** Returns `value` when it is within the limits; otherwise throws, naming `what` (the patch type). */
export function checkPatched<T extends JsonValue>(value: T, what: string): T {
  const m = measureJson(value, LIMITS)
  if (m.exceeded === 'depth') throw patchedTooDeep(what)
  if (m.exceeded === 'bytes') throw patchedTooLarge(what, m.bytes)
  return value
}
