/**
 * Measures a JSON value without recursion: its nesting depth (arrays and objects; the top level
 * is 1) and an estimate of its compact JSON size (exact for ASCII without escapes, lower
 * otherwise). The walk stops as soon as either passes its limit, so measuring a huge or
 * adversarially deep value costs no more than the limits allow. Values with shared members (YAML
 * aliases) are measured as they would serialize, so a bound on the size also bounds the walk.
 */

export type JsonMeasure = {
  depth: number
  bytes: number
  /** Which limit stopped the walk (the figures are then partial). */
  exceeded?: 'depth' | 'bytes'
}

export type MeasureLimits = { maxDepth?: number; maxBytes?: number }

function scalarBytes(v: unknown): number {
  if (typeof v === 'string') return v.length + 2
  if (typeof v === 'number') return Number.isFinite(v) ? String(v).length : 4
  if (typeof v === 'boolean') return v ? 4 : 5
  return 4
}

/** Pushes the members of a container onto the walk; returns the bytes of its own punctuation. */
function openContainer(v: object, level: number, stack: [unknown, number][]): number {
  if (Array.isArray(v)) {
    for (const item of v) stack.push([item, level + 1])
    return 1 + Math.max(v.length, 1)
  }
  const entries = Object.entries(v).filter(([, m]) => m !== undefined)
  let bytes = 1 + Math.max(entries.length, 1)
  for (const [k, m] of entries) {
    bytes += k.length + 3
    stack.push([m, level + 1])
  }
  return bytes
}

/** Depth and size estimate of `value`, stopping early at the limits given. */
export function measureJson(value: unknown, limits: MeasureLimits = {}): JsonMeasure {
  const maxDepth = limits.maxDepth ?? Number.POSITIVE_INFINITY
  const maxBytes = limits.maxBytes ?? Number.POSITIVE_INFINITY
  const stack: [unknown, number][] = [[value, 1]]
  let depth = 0
  let bytes = 0
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [v, level] = top
    if (typeof v !== 'object' || v === null) bytes += scalarBytes(v)
    else {
      depth = Math.max(depth, level)
      if (depth > maxDepth) return { depth, bytes, exceeded: 'depth' }
      bytes += openContainer(v, level, stack)
    }
    if (bytes > maxBytes) return { depth, bytes, exceeded: 'bytes' }
  }
  return { depth, bytes }
}
