/**
 * Kubernetes strategic merge patch (`application/strategic-merge-patch+json`) for built-in kinds,
 * as kubectl sends it. Maps merge recursively and `null` deletes a member; lists merge by the
 * merge keys of `builtin-schemas.ts` (see `strategic-list.ts`), other lists are replaced.
 * Directives: `$patch: replace | delete | merge` on maps and list items, `$retainKeys` (members
 * of the live map not listed are dropped), `$deleteFromPrimitiveList/<field>` and
 * `$setElementOrder/<field>` (the order of the merged list). Deviation from kube: `$patch: delete`
 * on a map removes the member instead of leaving an empty map. Custom resources do not support
 * strategic merge; `supportsStrategicMerge` tells the API to answer 415 for them. The recursion
 * follows the patch, which the decoder bounded; the result is checked against json-limits.ts.
 */
import { badRequest, unsupportedMediaType } from '../errors.ts'
import type { GroupVersionKind, JsonObject, JsonValue } from '../kube/types.ts'
import { isBuiltinGroup, schemaForKind } from './builtin-schemas.ts'
import { cloneJson, isJsonObject, ownMember, setMember } from './json-values.ts'
import { normalizeListOrder } from './list-order.ts'
import { fieldSchema, type NodeSchema } from './patch-schema.ts'
import { checkPatched } from './patched-result.ts'
import { deleteFromList, listIdentity, mergeList } from './strategic-list.ts'

const DELETE_FROM = '$deleteFromPrimitiveList/'
const SET_ORDER = '$setElementOrder/'
const RETAIN_KEYS = '$retainKeys'
const PATCH = '$patch'

/** True when the kind is served by kube from Go types, so strategic merge applies to it. */
export function supportsStrategicMerge(group: string, kind: string): boolean {
  return kind !== '' && isBuiltinGroup(group)
}

/**
 * Applies a strategic merge patch to a copy of `target`. 415 for kinds that do not support it,
 * 400 for a patch that is not an object or misuses a directive.
 */
export function applyStrategicMergePatch(
  target: JsonValue,
  patch: JsonValue,
  gvk: GroupVersionKind
): JsonValue {
  if (!supportsStrategicMerge(gvk.group, gvk.kind)) {
    throw unsupportedMediaType(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml'
    )
  }
  if (!isJsonObject(patch)) throw badRequest('a strategic merge patch must be a JSON object')
  const live = isJsonObject(target) ? cloneJson(target) : {}
  const merged = mergeMap(live, patch, schemaForKind(gvk.group, gvk.kind), '') ?? {}
  return checkPatched(merged, 'strategic merge patch')
}

function isDirectiveKey(key: string): boolean {
  return (
    key === PATCH || key === RETAIN_KEYS || key.startsWith(DELETE_FROM) || key.startsWith(SET_ORDER)
  )
}

function arrayDirective(patch: JsonObject, key: string, path: string): JsonValue[] | undefined {
  const value = ownMember(patch, key)
  if (value === undefined) return undefined
  if (!Array.isArray(value)) throw badRequest(`${path}: the value of ${key} must be a list`)
  return value
}

/**
 * Merges `patch` into `live` (which this call may modify) and returns the result, or undefined
 * when the patch deletes the map (`$patch: delete`).
 */
function mergeMap(
  live: JsonObject,
  patch: JsonObject,
  schema: NodeSchema | undefined,
  path: string
): JsonObject | undefined {
  const directive = ownMember(patch, PATCH)
  if (directive === 'delete') return undefined
  if (directive === 'replace') {
    const { [PATCH]: _, ...rest } = patch
    return mergeMap({}, rest, schema, path)
  }
  if (directive !== undefined && directive !== 'merge') {
    throw badRequest(`${path || '.'}: unknown $patch directive ${JSON.stringify(directive)}`)
  }
  retainKeys(live, patch, path)
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(DELETE_FROM)) continue
    const field = key.slice(DELETE_FROM.length)
    const values = arrayDirective(patch, key, path) ?? []
    const current = ownMember(live, field)
    if (Array.isArray(current)) setMember(live, field, deleteFromList(current, values))
  }
  for (const [key, value] of Object.entries(patch)) {
    if (isDirectiveKey(key)) continue
    if (value === null) {
      delete live[key]
      continue
    }
    const merged = mergeValue(ownMember(live, key), value, {
      schema: fieldSchema(schema, key),
      order: arrayDirective(patch, SET_ORDER + key, path),
      path: `${path}.${key}`,
    })
    if (merged === undefined) delete live[key]
    else setMember(live, key, merged)
  }
  reorderUnpatchedLists(live, patch, schema, path)
  return live
}

type ValueContext = { schema: NodeSchema | undefined; order: JsonValue[] | undefined; path: string }

function mergeValue(
  live: JsonValue | undefined,
  patch: JsonValue,
  ctx: ValueContext
): JsonValue | undefined {
  if (isJsonObject(patch))
    return mergeMap(isJsonObject(live) ? live : {}, patch, ctx.schema, ctx.path)
  if (!Array.isArray(patch)) return patch
  return mergeList(Array.isArray(live) ? live : [], patch, {
    list: ctx.schema?.list,
    order: ctx.order,
    path: ctx.path,
    mergeObject: mergeMap,
  })
}

/** `$retainKeys`: members of the live map that the directive does not list are dropped. */
function retainKeys(live: JsonObject, patch: JsonObject, path: string): void {
  const keys = arrayDirective(patch, RETAIN_KEYS, path)
  if (!keys) return
  if (!keys.every((k) => typeof k === 'string')) {
    throw badRequest(`${path || '.'}: $retainKeys must be a list of strings`)
  }
  for (const key of Object.keys(live)) {
    if (!keys.includes(key)) delete live[key]
  }
}

/** `$setElementOrder/<field>` without a `<field>` list in the patch only reorders the live list. */
function reorderUnpatchedLists(
  live: JsonObject,
  patch: JsonObject,
  schema: NodeSchema | undefined,
  path: string
): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ORDER)) continue
    const field = key.slice(SET_ORDER.length)
    const order = arrayDirective(patch, key, path) ?? []
    const current = ownMember(live, field)
    const list = fieldSchema(schema, field)?.list
    if (Object.hasOwn(patch, field) || !Array.isArray(current) || !list) continue
    const identify = listIdentity(list)
    setMember(
      live,
      field,
      normalizeListOrder(current, order.map(identify), current.map(identify), identify)
    )
  }
}
