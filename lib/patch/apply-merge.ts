/**
 * The value side of server-side apply: validating an apply configuration (keyed-list items need
 * their keys, no duplicates), merging it into the live object (objects merge, keyed and set lists
 * merge by item identity, everything else is replaced) and removing the fields a manager gave up.
 * Merged lists keep live-only items where they were and applied items in the applied order.
 */
import { badRequest } from '../errors.ts'
import type { JsonObject, JsonValue } from '../kube/types.ts'
import { type FieldPath, formatPath, pathKey } from './field-path.ts'
import type { FieldSet } from './field-set.ts'
import { listEntries } from './field-walk.ts'
import { guardDepth } from './json-limits.ts'
import { cloneJson, isJsonObject, ownMember, setMember } from './json-values.ts'
import { fieldSchema, type ListSchema, listKeys, type NodeSchema } from './patch-schema.ts'

/** A copy of `value` without null object members (an apply configuration's "unset"). */
export function dropNulls(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(dropNulls)
  if (!isJsonObject(value)) return value
  const out: JsonObject = {}
  for (const [k, v] of Object.entries(value))
    if (v !== null && v !== undefined) setMember(out, k, dropNulls(v))
  return out
}

/** 400 when a keyed or set list of the configuration has items without keys or duplicates. */
export function validateApplied(
  value: JsonValue,
  schema: NodeSchema | undefined,
  path: string[] = []
): void {
  guardDepth(path.length)
  if (isJsonObject(value)) {
    for (const [k, v] of Object.entries(value))
      validateApplied(v, fieldSchema(schema, k), [...path, `f:${k}`])
    return
  }
  if (!Array.isArray(value)) return
  const list = schema?.list
  if (list && !listEntries(value, list))
    throw badRequest(`${formatPath(path)}: ${listProblem(list)}`)
  for (const item of value) validateApplied(item, list?.items, path)
}

function listProblem(list: ListSchema): string {
  const keys = listKeys(list)
  if (keys.length === 0) return 'a set list must hold distinct primitive values'
  return `every item of this associative list needs the key fields ${keys.map((k) => `"${k}"`).join(', ')}, and no two items may have the same key`
}

/** Merges an apply configuration into the live value; the result shares nothing with either. */
export function mergeApplied(
  live: JsonValue | undefined,
  applied: JsonValue,
  schema: NodeSchema | undefined
): JsonValue {
  if (isJsonObject(live) && isJsonObject(applied) && !schema?.atomic) {
    const out = cloneJson(live)
    for (const [k, v] of Object.entries(applied))
      setMember(out, k, mergeApplied(ownMember(live, k), v, fieldSchema(schema, k)))
    return out
  }
  const list = schema?.list
  if (Array.isArray(live) && Array.isArray(applied) && list) {
    const liveEntries = listEntries(live, list)
    const appliedEntries = listEntries(applied, list)
    if (liveEntries && appliedEntries) return mergeEntries(liveEntries, appliedEntries, list)
  }
  return cloneJson(applied)
}

type Entry = { element: string; item: JsonValue }

/** Live-only items stay in place; applied items come in applied order, merged with live ones. */
function mergeEntries(live: Entry[], applied: Entry[], list: ListSchema): JsonValue[] {
  const liveItems = new Map(live.map((e) => [e.element, e.item]))
  const appliedIds = new Set(applied.map((e) => e.element))
  const out: JsonValue[] = []
  const emitted = new Set<string>()
  let li = 0
  let ri = 0
  while (li < live.length || ri < applied.length) {
    const l = live[li]
    const r = applied[ri]
    if (l && (emitted.has(l.element) || !appliedIds.has(l.element))) {
      if (!emitted.has(l.element)) out.push(cloneJson(l.item))
      li++
      continue
    }
    if (!r) break
    out.push(mergeApplied(liveItems.get(r.element), r.item, list.items))
    emitted.add(r.element)
    if (l && l.element === r.element) li++
    ri++
  }
  return out
}

/**
 * Removes `paths` from `root` (which it modifies). A path with kept paths below it is not removed
 * whole; objects emptied by a removal go too unless they are kept themselves.
 */
export function removeFields(
  root: JsonObject,
  schema: NodeSchema,
  paths: FieldPath[],
  keep: FieldSet
): void {
  const keptPrefixes = new Set<string>()
  for (const key of keep) {
    const path = JSON.parse(key) as string[]
    for (let i = 1; i < path.length; i++) keptPrefixes.add(pathKey(path.slice(0, i)))
  }
  const isKept = (path: FieldPath) => keep.has(pathKey(path)) || keptPrefixes.has(pathKey(path))
  for (const path of paths) {
    if (!keptPrefixes.has(pathKey(path))) removeAt(root, schema, path, { depth: 0, isKept })
  }
}

type Removal = {
  depth: number
  isKept: (path: FieldPath) => boolean
  /** Key fields of the list item being descended into: they stay while the item stays. */
  itemKeys?: readonly string[]
}

function removeAt(
  node: JsonValue,
  schema: NodeSchema | undefined,
  path: FieldPath,
  r: Removal
): void {
  const element = path[r.depth] ?? ''
  const last = r.depth === path.length - 1
  const next = { depth: r.depth + 1, isKept: r.isKept }
  if (element.startsWith('f:') && isJsonObject(node)) {
    const name = element.slice(2)
    const child = ownMember(node, name)
    if (child === undefined || (last && r.itemKeys?.includes(name))) return
    if (!last) removeAt(child, fieldSchema(schema, name), path, next)
    const emptied = !last && isJsonObject(child) && Object.keys(child).length === 0
    if (last || (emptied && !r.isKept(path.slice(0, r.depth + 1)))) delete node[name]
    return
  }
  const list = schema?.list
  if (!Array.isArray(node) || !list) return
  const index = (listEntries(node, list) ?? []).findIndex((e) => e.element === element)
  const item = node[index]
  if (item === undefined) return
  if (last) node.splice(index, 1)
  else removeAt(item, list.items, path, { ...next, itemKeys: listKeys(list) })
}
