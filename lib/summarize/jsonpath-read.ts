/**
 * Reading the values a JSONPath selects, for status summaries: the path is parsed by the
 * Customizer subset's parser (lib/customize/jsonpath.ts: names, indexes, `*`, slices, `..`, no
 * filters) and evaluated here with RFC 9535 selection semantics — names of maps, indexes and
 * slices of arrays (negative counting from the end), `*` of both, `..` the node and everything
 * under it — giving every selected value in document order (none when nothing matches). The
 * customizer's setter (jsonpath-set.ts) walks the same way to write; the two could share one
 * selection walk.
 */
import type { JsonPath, Selector } from '../customize/jsonpath.ts'
import type { JsonValue } from '../kube/types.ts'
import { isJsonObject, ownMember } from '../patch/json-values.ts'

const normalize = (i: number, len: number) => (i >= 0 ? i : len + i)
const clamp = (n: number, lo: number, hi: number) => Math.min(Math.max(n, lo), hi)

function sliceIndexes(len: number, sel: Extract<Selector, { kind: 'slice' }>): number[] {
  const step = sel.step ?? 1
  const out: number[] = []
  if (step > 0) {
    const lower = clamp(normalize(sel.start ?? 0, len), 0, len)
    const upper = clamp(normalize(sel.end ?? len, len), 0, len)
    for (let i = lower; i < upper; i += step) out.push(i)
  } else if (step < 0) {
    const upper = clamp(normalize(sel.start ?? len - 1, len), -1, len - 1)
    const lower = clamp(sel.end === undefined ? -1 : normalize(sel.end, len), -1, len - 1)
    for (let i = upper; i > lower; i += step) out.push(i)
  }
  return out
}

/** The children of `node` one selector picks. */
function select(node: JsonValue, sel: Selector): JsonValue[] {
  if (Array.isArray(node)) {
    if (sel.kind === 'wildcard') return node
    if (sel.kind === 'index') {
      const i = normalize(sel.index, node.length)
      return i >= 0 && i < node.length ? [node[i] as JsonValue] : []
    }
    if (sel.kind === 'slice') return sliceIndexes(node.length, sel).map((i) => node[i] as JsonValue)
    return []
  }
  if (!isJsonObject(node)) return []
  if (sel.kind === 'wildcard') return Object.values(node)
  if (sel.kind !== 'name') return []
  const v = ownMember(node, sel.name)
  return v === undefined ? [] : [v]
}

/** `node` and every value under it, in document order. */
function descendants(node: JsonValue): JsonValue[] {
  const kids = Array.isArray(node) ? node : isJsonObject(node) ? Object.values(node) : []
  return [node, ...kids.flatMap(descendants)]
}

/** Every value `path` selects in `root`, in document order. */
export function readJsonPath(path: JsonPath, root: JsonValue): JsonValue[] {
  let nodes: JsonValue[] = [root]
  for (const seg of path.segments) {
    const from = seg.descendant ? nodes.flatMap(descendants) : nodes
    nodes = from.flatMap((n) => seg.selectors.flatMap((sel) => select(n, sel)))
  }
  return nodes
}
