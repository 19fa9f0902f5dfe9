/**
 * Walks an object into the field paths server-side apply tracks, each with a fingerprint of its
 * value so two walks can be compared. Scalars, atomic lists and atomic maps are leaves; items of
 * keyed and set lists are members themselves (`k:`/`v:` elements) with their fields below. In `apply` mode
 * (the fields an apply configuration claims) objects are members only when empty; in `compare`
 * mode (diffing two versions for updates and conflicts) every object is a member too. Fields kube
 * does not track are skipped: `apiVersion`, `kind`, `metadata` itself and its server-owned members.
 */
import type { JsonObject, JsonValue } from '../kube/types.ts'
import { fieldElement, keyElement, pathKey, valueElement } from './field-path.ts'
import { type FieldSet, union } from './field-set.ts'
import { guardDepth } from './json-limits.ts'
import { canonicalJson, isJsonObject, isPrimitive } from './json-values.ts'
import { fieldSchema, itemKey, type ListSchema, listKeys, type NodeSchema } from './patch-schema.ts'

export type WalkMode = 'apply' | 'compare'

/** Fingerprints by path key. */
export type FieldValues = ReadonlyMap<string, string>

/** Members of `metadata` that kube leaves out of managed fields. */
export const UNTRACKED_METADATA: ReadonlySet<string> = new Set([
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'managedFields',
  'selfLink',
  'clusterName',
])

const MEMBER = '.'
const OBJECT = '{}'

type ListEntry = { element: string; item: JsonValue }

/**
 * The items of a keyed or set list with their path elements, or undefined when the list is not
 * well formed for its schema (an item without its key, a duplicate, a non-primitive set value);
 * such lists are then treated as atomic.
 */
export function listEntries(value: JsonValue[], list: ListSchema): ListEntry[] | undefined {
  const keyed = listKeys(list).length > 0
  const seen = new Set<string>()
  const out: ListEntry[] = []
  for (const item of value) {
    const key = keyed ? itemKey(item, list) : undefined
    let element: string | undefined
    if (key) element = keyElement(key)
    else if (!keyed && isPrimitive(item)) element = valueElement(item)
    if (element === undefined || seen.has(element)) return undefined
    seen.add(element)
    out.push({ element, item })
  }
  return out
}

/** The tracked fields of an object (kube's managed-fields view of it). */
export function objectFields(obj: JsonObject, schema: NodeSchema, mode: WalkMode): FieldValues {
  const out = new Map<string, string>()
  for (const [key, value] of Object.entries(obj)) {
    if (key === 'apiVersion' || key === 'kind' || value === undefined) continue
    if (key === 'metadata' && isJsonObject(value)) {
      const tracked = Object.entries(value).filter(
        ([k, v]) => !UNTRACKED_METADATA.has(k) && v !== undefined
      )
      const metaSchema = fieldSchema(schema, 'metadata')
      for (const [k, v] of tracked)
        walk(v, fieldSchema(metaSchema, k), [fieldElement(key), fieldElement(k)], { out, mode })
    } else walk(value, fieldSchema(schema, key), [fieldElement(key)], { out, mode })
  }
  return out
}

type Walk = { out: Map<string, string>; mode: WalkMode }

function walk(value: JsonValue, schema: NodeSchema | undefined, path: string[], w: Walk): void {
  guardDepth(path.length)
  if (isJsonObject(value) && !schema?.atomic) {
    if (w.mode === 'compare' || Object.keys(value).length === 0) w.out.set(pathKey(path), OBJECT)
    walkMembers(value, schema, path, w)
    return
  }
  const entries = Array.isArray(value) && schema?.list ? listEntries(value, schema.list) : undefined
  if (!entries) {
    w.out.set(pathKey(path), canonicalJson(value))
    return
  }
  if (entries.length === 0) w.out.set(pathKey(path), '[]')
  for (const { element, item } of entries) {
    const itemPath = [...path, element]
    w.out.set(pathKey(itemPath), MEMBER)
    if (isJsonObject(item)) walkMembers(item, schema?.list?.items, itemPath, w)
  }
}

function walkMembers(
  obj: JsonObject,
  schema: NodeSchema | undefined,
  path: string[],
  w: Walk
): void {
  for (const [key, child] of Object.entries(obj)) {
    if (child !== undefined) walk(child, fieldSchema(schema, key), [...path, fieldElement(key)], w)
  }
}

export type FieldDiff = { added: FieldSet; modified: FieldSet; removed: FieldSet }

/** Which tracked fields appeared, changed value or disappeared between two walks. */
export function compareFields(before: FieldValues, after: FieldValues): FieldDiff {
  const added = new Set<string>()
  const modified = new Set<string>()
  const removed = new Set<string>()
  for (const [key, value] of after) {
    const old = before.get(key)
    if (old === undefined) added.add(key)
    else if (old !== value) modified.add(key)
  }
  for (const key of before.keys()) if (!after.has(key)) removed.add(key)
  return { added, modified, removed }
}

/** Added or modified fields of a diff. */
export function changedFields(diff: FieldDiff): FieldSet {
  return union(diff.added, diff.modified)
}
