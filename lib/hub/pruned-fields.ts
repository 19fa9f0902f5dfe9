/**
 * Field ownership after pruning: once unknown fields are dropped from an object (validation.ts),
 * no entry of its `metadata.managedFields` may still claim them, as kube's managed fields never
 * name a field the object cannot hold. The dropped fields are found by walking the object before
 * and after pruning (so keyed list items are named as server-side apply names them); ownership of
 * anything at or below a dropped field is removed, and an entry left owning nothing is dropped.
 */
import type { JsonObject, KubeObject } from '../kube/types.ts'
import { schemaForObject } from '../patch/builtin-schemas.ts'
import { pathFromKey, pathKey } from '../patch/field-path.ts'
import type { FieldSet } from '../patch/field-set.ts'
import { objectFields } from '../patch/field-walk.ts'
import { decodeManagedFields, withManagedFields } from '../patch/managed-fields.ts'

const asJson = (obj: KubeObject) => obj as unknown as JsonObject

/** Is the field `key`, or one of the fields above it, in `gone`? */
function isGone(key: string, gone: FieldSet): boolean {
  const path = pathFromKey(key)
  for (let n = path.length; n > 0; n--) if (gone.has(pathKey(path.slice(0, n)))) return true
  return false
}

/**
 * `obj` with no manager owning a field that `before` has and `after` lacks (`after` is `before`
 * minus the pruned fields).
 */
export function forgetFields(obj: KubeObject, before: KubeObject, after: KubeObject): KubeObject {
  if ((obj.metadata.managedFields ?? []).length === 0) return obj
  const schema = schemaForObject(after)
  const kept = objectFields(asJson(after), schema, 'compare')
  const gone = new Set(
    [...objectFields(asJson(before), schema, 'compare').keys()].filter((k) => !kept.has(k))
  )
  if (gone.size === 0) return obj
  const managers = decodeManagedFields(obj.metadata.managedFields).map((m) => ({
    ...m,
    fields: new Set([...m.fields].filter((k) => !isGone(k, gone))),
  }))
  return withManagedFields(obj, managers)
}

/** `pruned` (which is `before` minus some fields) with no manager owning the removed fields. */
export const forgetPrunedFields = (before: KubeObject, pruned: KubeObject): KubeObject =>
  forgetFields(pruned, before, pruned)
