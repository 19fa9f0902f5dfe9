/**
 * Small helpers over plain JSON values shared by the patch engines: a type guard for JSON
 * objects, deep equality, deep copies and a canonical (sorted-key) serialization used to compare
 * and index values. All of them treat arrays as ordered and objects as unordered. The recursive
 * ones refuse values nested past HELPER_DEPTH_GUARD with a 400 instead of overflowing the stack.
 */
import type { JsonObject, JsonValue } from '../kube/types.ts'
import { guardDepth } from './json-limits.ts'

/** True for a JSON object (not null, not an array). */
export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** Deterministic JSON text of a value: object keys sorted, undefined members dropped. */
export function canonicalJson(v: unknown, depth = 0): string {
  if (Array.isArray(v)) {
    guardDepth(depth)
    return `[${v.map((x) => canonicalJson(x, depth + 1)).join(',')}]`
  }
  if (isJsonObject(v)) {
    guardDepth(depth)
    const keys = Object.keys(v)
      .filter((k) => v[k] !== undefined)
      .sort()
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k], depth + 1)}`).join(',')}}`
  }
  return JSON.stringify(v) ?? 'null'
}

/** Structural equality of two JSON values. */
export function deepEqual(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true
  if (Array.isArray(a)) {
    guardDepth(depth)
    return (
      Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i], depth + 1))
    )
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    guardDepth(depth)
    const ka = Object.keys(a)
    if (ka.length !== Object.keys(b).length) return false
    return ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k], depth + 1))
  }
  return false
}

/** A deep copy, so callers can mutate the result without touching the input. */
export function cloneJson<T extends JsonValue>(v: T): T {
  return copyValue(v, 0) as T
}

function copyValue(v: JsonValue, depth: number): JsonValue {
  if (typeof v !== 'object' || v === null) return v
  guardDepth(depth)
  if (Array.isArray(v)) return v.map((x) => copyValue(x, depth + 1))
  const out: JsonObject = {}
  for (const [k, m] of Object.entries(v)) setMember(out, k, copyValue(m, depth + 1))
  return out
}

/** The scalar JSON types, null included. */
export function isPrimitive(v: unknown): v is string | number | boolean | null {
  return v === null || ['string', 'number', 'boolean'].includes(typeof v)
}

/**
 * Sets `obj[key]` as an own data member, also for the key `__proto__` (which plain assignment
 * would treat as a prototype change instead of a member).
 */
export function setMember(obj: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true })
  } else obj[key] = value
}

/** `obj[key]` when it is an own member, so keys like `constructor` never reach the prototype. */
export function ownMember(obj: JsonObject, key: string): JsonValue | undefined {
  return Object.hasOwn(obj, key) ? obj[key] : undefined
}
