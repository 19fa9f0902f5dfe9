/**
 * Setting a value at every place a parsed JSONPath (parse.ts) selects in a JSON object, in
 * place. A definite path (one name or index per segment, no `..`) is walked and creates the map
 * members it lacks, as the reference says (`$.spec.template.metadata.labels.tier` on an object
 * without labels makes them); it fails with a ReplacementError when it must go through something
 * that is not a map (or, for an index, not an array), when an index is out of range (arrays are
 * never extended) or when a missing member would have to be an array. Any other path sets only the
 * places that exist (select.ts, the walk reading shares: RFC 9535 selection) and may select none,
 * which is not an error: a wildcard over an empty list changes nothing. Every selected place gets
 * its own copy of the value. The root itself (`$`) cannot be replaced.
 */
import type { JsonObject, JsonValue } from '../kube/types.ts'
import { cloneJson, isJsonObject, ownMember, setMember } from '../patch/json-values.ts'
import { isDefinite, type JsonPath, type Selector } from './parse.ts'
import { normalizeIndex, selectPlaces } from './select.ts'

/** A replacement that cannot be made on this object. */
export class ReplacementError extends Error {
  readonly path: string
  constructor(path: string, what: string) {
    super(`cannot set ${JSON.stringify(path)}: ${what}`)
    this.name = 'ReplacementError'
    this.path = path
  }
}

const describe = (v: JsonValue | undefined) =>
  v === undefined
    ? 'missing'
    : v === null
      ? 'null'
      : Array.isArray(v)
        ? 'a list'
        : isJsonObject(v)
          ? 'a map'
          : `a ${typeof v}`

/** Walks a definite path, creating missing map members; returns the place to set. */
function walkDefinite(
  root: JsonObject,
  path: JsonPath
): { parent: JsonValue; key: string | number } {
  const sels = path.segments.map((s) => s.selectors[0] as Selector)
  let node: JsonValue = root
  let at = '$'
  for (let i = 0; i < sels.length; i++) {
    const sel = sels[i] as Selector
    const last = i === sels.length - 1
    if (sel.kind === 'name') {
      if (!isJsonObject(node))
        throw new ReplacementError(path.text, `${at} is ${describe(node)}, not a map`)
      if (last) return { parent: node, key: sel.name }
      let next = ownMember(node, sel.name)
      if (next === undefined) {
        if (sels[i + 1]?.kind === 'index')
          throw new ReplacementError(
            path.text,
            `${at}.${sel.name} is missing, so no index of it can be set`
          )
        next = {}
        setMember(node, sel.name, next)
      }
      node = next
      at = `${at}.${sel.name}`
      continue
    }
    const index = sel.kind === 'index' ? sel.index : 0
    if (!Array.isArray(node))
      throw new ReplacementError(path.text, `${at} is ${describe(node)}, not a list`)
    const n = normalizeIndex(index, node.length)
    if (n < 0 || n >= node.length)
      throw new ReplacementError(
        path.text,
        `index ${index} is out of range: ${at} has ${node.length} item(s)`
      )
    if (last) return { parent: node, key: n }
    node = node[n] as JsonValue
    at = `${at}[${index}]`
  }
  throw new ReplacementError(path.text, 'the whole object cannot be replaced')
}

/** Sets `value` at every place `path` selects in `root` (mutated); returns how many. */
export function setAtPath(root: JsonObject, path: JsonPath, value: JsonValue): number {
  if (path.segments.length === 0)
    throw new ReplacementError(path.text, 'the whole object cannot be replaced')
  if (isDefinite(path)) {
    const { parent, key } = walkDefinite(root, path)
    if (Array.isArray(parent)) parent[key as number] = cloneJson(value)
    else setMember(parent as JsonObject, key as string, cloneJson(value))
    return 1
  }
  const places = selectPlaces(root, path).filter((p) => p.parent !== undefined)
  for (const p of places) {
    if (Array.isArray(p.parent)) p.parent[p.key as number] = cloneJson(value)
    else setMember(p.parent as JsonObject, p.key as string, cloneJson(value))
  }
  return places.length
}
