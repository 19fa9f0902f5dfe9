/**
 * Pruning of unknown fields, as kube's structural pruning drops them: `withoutFields` removes the
 * fields at the given segment paths (found by the schema walk, validate-schema.ts) and returns a
 * copy; only the objects and lists on the way to a removed field are copied, the rest is shared
 * with the input, which is never changed. A path that no longer leads anywhere is skipped.
 */
import type { FieldSegments } from './validate-schema.ts'
import { isRecord } from './validate-util.ts'

type Node = { children: Map<string | number, Node>; drop: boolean }

function treeOf(paths: readonly FieldSegments[]): Node {
  const root: Node = { children: new Map(), drop: false }
  for (const path of paths) {
    let node = root
    for (const seg of path) {
      let child = node.children.get(seg)
      if (!child) {
        child = { children: new Map(), drop: false }
        node.children.set(seg, child)
      }
      node = child
    }
    node.drop = true
  }
  return root
}

function prune(value: unknown, node: Node): unknown {
  if (Array.isArray(value)) {
    const out = [...value]
    for (const [seg, child] of node.children) {
      if (typeof seg === 'number' && seg < out.length && !child.drop)
        out[seg] = prune(out[seg], child)
    }
    return out
  }
  if (!isRecord(value)) return value
  const out: Record<string, unknown> = { ...value }
  for (const [seg, child] of node.children) {
    if (typeof seg !== 'string' || !Object.hasOwn(out, seg)) continue
    if (child.drop) delete out[seg]
    else out[seg] = prune(out[seg], child)
  }
  return out
}

/** `value` without the fields at `paths`; `value` itself when there is nothing to remove. */
export function withoutFields<T>(value: T, paths: readonly FieldSegments[]): T {
  if (paths.length === 0) return value
  return prune(value, treeOf(paths)) as T
}
