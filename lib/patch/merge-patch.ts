/**
 * JSON merge patch (RFC 7386), the `application/merge-patch+json` patch type. A patch object is
 * merged member by member into the target: `null` deletes a member, objects merge recursively,
 * and anything else (arrays included) replaces the target value. A patch that is not an object
 * replaces the whole target. `createMergePatch` computes the patch that turns one value into
 * another (RFC 7386 cannot express "set to null", so null members of `to` become deletions).
 * Neither function mutates its arguments. Both refuse values nested past HELPER_DEPTH_GUARD, and
 * `applyMergePatch` refuses a result deeper or larger than the limits of `json-limits.ts`.
 */
import type { JsonObject, JsonValue } from '../kube/types.ts'
import { guardDepth } from './json-limits.ts'
import { cloneJson, deepEqual, isJsonObject, ownMember, setMember } from './json-values.ts'
import { checkPatched } from './patched-result.ts'

/**
 * Applies `patch` to `target` as RFC 7386 describes. The result is a fresh value that shares
 * nothing with the arguments.
 */
export function applyMergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  const merged = mergeInto(target === undefined ? undefined : cloneJson(target), patch, 0)
  return checkPatched(merged, 'merge patch')
}

/** RFC 7386 on a target the caller owns: objects are updated in place. */
function mergeInto(target: JsonValue | undefined, patch: JsonValue, depth: number): JsonValue {
  if (!isJsonObject(patch)) return cloneJson(patch)
  guardDepth(depth)
  const result: JsonObject = isJsonObject(target) ? target : {}
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key]
    else setMember(result, key, mergeInto(ownMember(result, key), value, depth + 1))
  }
  return result
}

/**
 * The merge patch that turns `from` into `to`: removed members become null, changed members are
 * carried over (objects as nested patches), unchanged members are left out. When either side is
 * not an object the patch is `to` itself.
 */
export function createMergePatch(from: JsonValue, to: JsonValue, depth = 0): JsonValue {
  if (!isJsonObject(from) || !isJsonObject(to)) return cloneJson(to)
  guardDepth(depth)
  const patch: JsonObject = {}
  for (const key of Object.keys(from)) {
    if (!Object.hasOwn(to, key)) setMember(patch, key, null)
  }
  for (const [key, value] of Object.entries(to)) {
    const old = ownMember(from, key)
    if (old === undefined) setMember(patch, key, cloneJson(value))
    else if (isJsonObject(old) && isJsonObject(value)) {
      const nested = createMergePatch(old, value, depth + 1)
      if (isJsonObject(nested) && Object.keys(nested).length > 0) setMember(patch, key, nested)
    } else if (!deepEqual(old, value)) setMember(patch, key, cloneJson(value))
  }
  return patch
}
