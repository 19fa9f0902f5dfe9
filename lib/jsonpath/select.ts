/**
 * The one JSONPath walk: the places a parsed path (parse.ts) selects in a JSON value, with RFC 9535
 * selection semantics — names of maps, indexes and slices of arrays (negative counting from the
 * end), `*` of both, `..` the node and everything under it — in document order (none when nothing
 * matches). Each place is a value with the map or array holding it and its key there, so reading
 * (read.ts) takes the values and setting (set.ts) writes through the parent. The root's place has
 * no parent. Pure.
 */
import type { JsonObject, JsonValue } from '../kube/types.ts'
import { isJsonObject, ownMember } from '../patch/json-values.ts'
import type { JsonPath, Selector } from './parse.ts'

export type Place = {
  value: JsonValue
  parent: JsonObject | JsonValue[] | undefined
  key: string | number
}

/** An index counted from the end when negative. */
export const normalizeIndex = (i: number, len: number) => (i >= 0 ? i : len + i)
const clamp = (n: number, lo: number, hi: number) => Math.min(Math.max(n, lo), hi)

function sliceIndexes(len: number, sel: Extract<Selector, { kind: 'slice' }>): number[] {
  const step = sel.step ?? 1
  const out: number[] = []
  if (step > 0) {
    const lower = clamp(normalizeIndex(sel.start ?? 0, len), 0, len)
    const upper = clamp(normalizeIndex(sel.end ?? len, len), 0, len)
    for (let i = lower; i < upper; i += step) out.push(i)
  } else if (step < 0) {
    const upper = clamp(normalizeIndex(sel.start ?? len - 1, len), -1, len - 1)
    const lower = clamp(sel.end === undefined ? -1 : normalizeIndex(sel.end, len), -1, len - 1)
    for (let i = upper; i > lower; i += step) out.push(i)
  }
  return out
}

/** The children of `node`, as places. */
function children(node: JsonValue): Place[] {
  if (Array.isArray(node)) return node.map((value, key): Place => ({ value, parent: node, key }))
  if (!isJsonObject(node)) return []
  return Object.keys(node).map(
    (key): Place => ({ value: node[key] as JsonValue, parent: node, key })
  )
}

/** The children of `node` one selector picks. */
function select(node: JsonValue, sel: Selector): Place[] {
  if (sel.kind === 'wildcard') return children(node)
  if (Array.isArray(node)) {
    const at = (i: number): Place => ({ value: node[i] as JsonValue, parent: node, key: i })
    if (sel.kind === 'index') {
      const i = normalizeIndex(sel.index, node.length)
      return i >= 0 && i < node.length ? [at(i)] : []
    }
    if (sel.kind === 'slice') return sliceIndexes(node.length, sel).map(at)
    return []
  }
  if (!isJsonObject(node) || sel.kind !== 'name') return []
  const value = ownMember(node, sel.name)
  return value === undefined ? [] : [{ value, parent: node, key: sel.name }]
}

/** `place` and every place under it, in document order. */
function descendants(place: Place): Place[] {
  return [place, ...children(place.value).flatMap(descendants)]
}

/** Every place `path` selects in `root`, in document order (`$` alone: the root's own place). */
export function selectPlaces(root: JsonValue, path: JsonPath): Place[] {
  let places: Place[] = [{ value: root, parent: undefined, key: '' }]
  for (const seg of path.segments) {
    const from = seg.descendant ? places.flatMap(descendants) : places
    places = from.flatMap((p) => seg.selectors.flatMap((sel) => select(p.value, sel)))
  }
  return places
}
