/**
 * Measures a JSON value without recursion: its nesting depth (arrays and objects; the top level
 * is 1) and an estimate of its compact JSON size (exact for ASCII without escapes, lower
 * otherwise). The walk stops as soon as either passes its limit, so measuring a huge or
 * adversarially deep value costs no more than the limits allow — or, with `depthFirst`, only at
 * the depth limit, so that one walk answers both questions with depth taking precedence. One
 * member named by a path of object keys (`roomUnder`: a kube object's metadata.managedFields) may
 * nest deeper than the rest. Values with shared members (YAML aliases) are measured as they would
 * serialize, so a bound on the size also bounds the walk.
 */

export type JsonMeasure = {
  depth: number
  bytes: number
  /** Which limit stopped the walk (the figures are then partial). */
  exceeded?: 'depth' | 'bytes'
}

export type MeasureLimits = {
  maxDepth?: number
  maxBytes?: number
  /** Passing maxBytes does not stop the walk: only maxDepth does (bytes are those at the pass). */
  depthFirst?: boolean
  /** The member at `path` (object keys from the top) may nest `extraDepth` levels deeper. */
  roomUnder?: { path: readonly string[]; extraDepth: number }
}

/**
 * A value on the walk: its level, its depth limit, and how many keys of `roomUnder.path` lead to
 * it (-1 once off the path).
 */
type Entry = [value: unknown, level: number, limit: number, onPath: number]

function scalarBytes(v: unknown): number {
  if (typeof v === 'string') return v.length + 2
  if (typeof v === 'number') return Number.isFinite(v) ? String(v).length : 4
  if (typeof v === 'boolean') return v ? 4 : 5
  return 4
}

/** Pushes the members of a container onto the walk; returns the bytes of its own punctuation. */
function openContainer(
  [v, level, limit, onPath]: Entry,
  room: MeasureLimits['roomUnder'],
  stack: Entry[]
): number {
  if (Array.isArray(v)) {
    for (const item of v) stack.push([item, level + 1, limit, -1])
    return 1 + Math.max(v.length, 1)
  }
  const entries = Object.entries(v as object).filter(([, m]) => m !== undefined)
  let bytes = 1 + Math.max(entries.length, 1)
  for (const [k, m] of entries) {
    bytes += k.length + 3
    const next = onPath >= 0 && room?.path[onPath] === k ? onPath + 1 : -1
    const roomy = room !== undefined && next === room.path.length
    stack.push([m, level + 1, roomy ? limit + room.extraDepth : limit, next])
  }
  return bytes
}

/** Depth and size estimate of `value`, stopping early at the limits given. */
export function measureJson(value: unknown, limits: MeasureLimits = {}): JsonMeasure {
  const maxDepth = limits.maxDepth ?? Number.POSITIVE_INFINITY
  const maxBytes = limits.maxBytes ?? Number.POSITIVE_INFINITY
  const room = limits.roomUnder
  const stack: Entry[] = [[value, 1, maxDepth, room && room.path.length > 0 ? 0 : -1]]
  let depth = 0
  let bytes = 0
  let passedBytes: number | undefined
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [v, level, limit] = top
    if (typeof v !== 'object' || v === null) bytes += scalarBytes(v)
    else {
      depth = Math.max(depth, level)
      if (level > limit) return { depth, bytes: passedBytes ?? bytes, exceeded: 'depth' }
      bytes += openContainer(top, room, stack)
    }
    if (bytes > maxBytes && passedBytes === undefined) {
      if (!limits.depthFirst) return { depth, bytes, exceeded: 'bytes' }
      passedBytes = bytes
    }
  }
  return passedBytes === undefined
    ? { depth, bytes }
    : { depth, bytes: passedBytes, exceeded: 'bytes' }
}
