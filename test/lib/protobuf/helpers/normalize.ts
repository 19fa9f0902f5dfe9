/**
 * Normalizes a kube JSON object for comparing what kubectl renders (`--dry-run=client -o json`)
 * with what the protobuf decoder produces: Go's JSON keeps `creationTimestamp: null`, empty
 * structs such as `status: {}` or `resources: {}` and nil slices as `null`, which carry no data,
 * so nulls, empty objects and empty arrays are removed, recursively.
 */

export function pruneEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pruneEmpty)
  if (typeof value !== 'object' || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    const p = pruneEmpty(v)
    if (p === null || p === undefined) continue
    if (Array.isArray(p) && p.length === 0) continue
    if (typeof p === 'object' && !Array.isArray(p) && Object.keys(p).length === 0) continue
    out[k] = p
  }
  return out
}
