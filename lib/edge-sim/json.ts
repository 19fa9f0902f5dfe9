/**
 * Tiny helpers for editing untyped object JSON in place, used by the defaulting table and the
 * workload simulator: read a member as an object or array (a fresh empty one when absent), set a
 * member only when it is unset, and read numbers and strings with a fallback.
 */

export type Obj = Record<string, unknown>

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** `parent[key]` as an object, created (and stored) when absent or not an object. */
export function child(parent: Obj, key: string): Obj {
  const v = parent[key]
  if (isObj(v)) return v
  const created: Obj = {}
  parent[key] = created
  return created
}

/** `parent[key]` as an object without creating it. */
export function peek(parent: unknown, key: string): Obj | undefined {
  if (!isObj(parent)) return undefined
  const v = parent[key]
  return isObj(v) ? v : undefined
}

/** The object members of an array member (non-objects skipped); empty when absent. */
export function objects(parent: unknown, key: string): Obj[] {
  if (!isObj(parent)) return []
  const v = parent[key]
  return Array.isArray(v) ? v.filter(isObj) : []
}

/** Sets `o[key]` to `value` when it is undefined, null or ''. */
export function setDefault(o: Obj, key: string, value: unknown): void {
  if (o[key] === undefined || o[key] === null || o[key] === '') o[key] = value
}

export function num(o: unknown, key: string, fallback: number): number {
  const v = isObj(o) ? o[key] : undefined
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback
}

export function str(o: unknown, key: string, fallback = ''): string {
  const v = isObj(o) ? o[key] : undefined
  return typeof v === 'string' ? v : fallback
}

/** An object's `spec` as a plain record ({} when absent). */
export const specOf = (o: unknown): Obj => peek(o, 'spec') ?? {}

/** An object's `status` as a plain record ({} when absent). */
export const statusOf = (o: unknown): Obj => peek(o, 'status') ?? {}
