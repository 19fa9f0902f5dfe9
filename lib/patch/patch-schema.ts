/**
 * The shape of the merge-key tables strategic merge patch and server-side apply consult: a tree of
 * nodes that follows JSON field names, where a node marks a list that merges instead of being
 * replaced. A list with a `mergeKey` merges its object items by that key (`patchMergeKey` in kube
 * struct tags); a list node without one is a set of primitives (like `metadata.finalizers`). Any
 * list not in the table is atomic: a patch or an apply replaces it whole. Server-side apply
 * identifies keyed items by `keys` (kube's `listMapKeys`, defaulting to the merge key), filling
 * in `keyDefaults` for key fields an item leaves out (a container port's protocol is TCP). An
 * `atomic` node is a map that, like a scalar, is one field: merged by replacing it.
 */
import type { JsonObject, JsonValue } from '../kube/types.ts'
import { canonicalJson, isJsonObject, isPrimitive, ownMember } from './json-values.ts'

export type ListSchema = {
  mergeKey?: string
  keys?: readonly string[]
  keyDefaults?: JsonObject
  items?: NodeSchema
}

export type NodeSchema = {
  fields?: Readonly<Record<string, NodeSchema>>
  list?: ListSchema
  /** A map owned and replaced whole, like a scalar (`x-kubernetes-map-type: atomic`). */
  atomic?: boolean
}

/** The schema of member `key` of an object described by `node`. */
export function fieldSchema(node: NodeSchema | undefined, key: string): NodeSchema | undefined {
  return node?.fields && Object.hasOwn(node.fields, key) ? node.fields[key] : undefined
}

/** Keyed list: merges object items by key. */
export const keyedList = (
  mergeKey: string,
  items?: NodeSchema,
  more?: Omit<ListSchema, 'mergeKey' | 'items'>
): NodeSchema => ({
  list: { mergeKey, ...(items ? { items } : {}), ...more },
})

/** A list of primitives that merges as a set. */
export const SET_LIST: NodeSchema = { list: {} }

/** Node for an object with the given fields. */
export const fields = (members: Record<string, NodeSchema>): NodeSchema => ({ fields: members })

/** The identity key fields of a keyed list (`keys`, else the merge key). */
export function listKeys(list: ListSchema): readonly string[] {
  if (list.keys) return list.keys
  return list.mergeKey ? [list.mergeKey] : []
}

/**
 * The key fields of one keyed-list item, sorted by name and with defaults filled in, or undefined
 * when the item is not an object or lacks a key field that has no default.
 */
export function itemKey(item: JsonValue, list: ListSchema): JsonObject | undefined {
  if (!isJsonObject(item)) return undefined
  const key: JsonObject = {}
  for (const name of [...listKeys(list)].sort()) {
    const value =
      ownMember(item, name) ?? (list.keyDefaults ? ownMember(list.keyDefaults, name) : undefined)
    if (value === undefined || !isPrimitive(value)) return undefined
    key[name] = value
  }
  return key
}

/** A string identifying a list item: its key for keyed lists, the value itself for sets. */
export function itemIdentity(item: JsonValue, list: ListSchema): string | undefined {
  if (listKeys(list).length === 0) return isPrimitive(item) ? canonicalJson(item) : undefined
  const key = itemKey(item, list)
  return key ? canonicalJson(key) : undefined
}
