/**
 * The merge-key schema (patch-schema.ts) of a kind described by an OpenAPI v3 structural schema —
 * a CRD version's `openAPIV3Schema`, or the schema the hub derives from a kind's zod definition —
 * read from kube's list markers: `x-kubernetes-list-type: map` with `x-kubernetes-list-map-keys`
 * is a keyed list (a key field's `default` fills in for items that leave it out), `set` a set
 * list, `atomic` or no marker an atomic list; `x-kubernetes-map-type: atomic` makes an object one
 * field, replaced whole. Objects follow `properties`; `allOf`/`anyOf`/`oneOf`
 * branches add their properties. `metadata` always has the ObjectMeta lists (finalizers, owner
 * references), whatever the schema says about it, as in kube.
 */
import type { JsonObject, JsonValue } from '../kube/types.ts'
import { OBJECT_META } from './builtin-schemas.ts'
import { guardDepth } from './json-limits.ts'
import { isJsonObject } from './json-values.ts'
import type { ListSchema, NodeSchema } from './patch-schema.ts'

const strings = (v: JsonValue | undefined): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []

/** The schema objects a node stands for: itself and its composition branches. */
function branches(node: JsonObject): JsonObject[] {
  const more = ['allOf', 'anyOf', 'oneOf'].flatMap((k) => {
    const list = node[k]
    return Array.isArray(list) ? list.filter(isJsonObject) : []
  })
  return [node, ...more]
}

function listOf(node: JsonObject, items: NodeSchema | undefined): ListSchema | undefined {
  const type = node['x-kubernetes-list-type']
  if (type === 'set') return items ? { items } : {}
  if (type !== 'map') return undefined
  const keys = strings(node['x-kubernetes-list-map-keys'])
  const [mergeKey] = keys
  if (mergeKey === undefined) return undefined
  const defaults: JsonObject = {}
  const itemNode = isJsonObject(node.items) ? node.items : undefined
  const props = itemNode && isJsonObject(itemNode.properties) ? itemNode.properties : {}
  for (const k of keys) {
    const p = props[k]
    if (isJsonObject(p) && p.default !== undefined && p.default !== null) defaults[k] = p.default
  }
  return {
    mergeKey,
    keys,
    ...(Object.keys(defaults).length > 0 ? { keyDefaults: defaults } : {}),
    ...(items ? { items } : {}),
  }
}

/** The merge-key node of one schema node; undefined when nothing below it merges. */
function nodeOf(node: JsonValue | undefined, depth: number): NodeSchema | undefined {
  guardDepth(depth)
  if (!isJsonObject(node)) return undefined
  if (node['x-kubernetes-map-type'] === 'atomic') return { atomic: true }
  const members = new Map<string, NodeSchema>()
  let list: ListSchema | undefined
  for (const b of branches(node)) {
    if (isJsonObject(b.properties)) {
      for (const [name, child] of Object.entries(b.properties)) {
        const sub = nodeOf(child, depth + 1)
        if (sub && !members.has(name)) members.set(name, sub)
      }
    }
    if (Array.isArray(b.items) || list) continue
    const items = isJsonObject(b.items) ? nodeOf(b.items, depth + 1) : undefined
    list = listOf(b, items)
  }
  const out: NodeSchema = {
    ...(members.size > 0 ? { fields: Object.fromEntries(members) } : {}),
    ...(list ? { list } : {}),
  }
  return out.fields || out.list ? out : undefined
}

/** The merge-key schema of a kind from its OpenAPI v3 schema (see the header). */
export function nodeSchemaFromOpenApi(schema: JsonObject): NodeSchema {
  const root = nodeOf(schema, 0)
  return { fields: { ...(root?.fields ?? {}), metadata: OBJECT_META } }
}
