/**
 * Merging the objects several workload spaces of ONE trust scope send under one key (group,
 * resource, namespace, name) to one destination, read at one API version (seed 003,
 * "EdgePlacement objects"); spaces of different trust scopes are never merged (trust-scopes.ts
 * decides which contributions reach this point). The sources are ordered by when they were last
 * updated, by values the server alone writes: a source's `authored` resourceVersion (the hub's
 * counter, monotonic across spaces: authored-order.ts remembers the resourceVersion at which the
 * translator first saw the source's present content, so the control plane's own writes to a
 * source — the edge-removal finalizer, the executing count, a singleton's status — which follow
 * the edges' state, neither move it nor flip the winner), else its resourceVersion, then the
 * source id (so the result never depends on input order). Nothing a client can write orders
 * them: `metadata.managedFields` times (a client may send any, 2099 included) play no part.
 * Labels and annotations merge key by key: distinct keys never conflict, one key
 * with different values is a conflict on `metadata.labels[<key>]` and the most recent value wins.
 * ownerReferences likewise, keyed by (apiVersion, kind, name), the field named
 * `metadata.ownerReferences[<apiVersion>/<kind>/<name>]`. Finalizers are the union (sorted).
 * managedFields are dropped. `spec` and `status` are monoliths, a missing one being null: unequal
 * JSON is a conflict and the most recent value (possibly none) wins. Every other top-level field
 * (`data`, `rules`, ...) is taken key by key like the object itself, a source lacking it
 * contributing nothing (our reading: the seed makes "missing = null" only for spec and status):
 * when all present values are maps they merge key by key (conflict on `data[<key>]`), else the
 * field is a monolith. The rest of metadata (name, uid, resourceVersion...) comes from the most
 * recent source; the projection (project.ts) then clears what a copy never carries (seed 001:
 * uid, resourceVersion, ownerReferences, finalizers, status...), so the merge follows the seed
 * even for fields its output drops. One source: the object itself, minus managedFields.
 */
import type { JsonObject, JsonValue, KubeObject, ObjectMeta } from '../../lib/kube/types.ts'
import { canonicalJson, cloneJson } from '../../lib/patch/json-values.ts'

/**
 * One space's object; `authored`, when known, the resourceVersion its present content was first
 * seen at (authored-order.ts), else its resourceVersion stands for it.
 */
export type MergeSource = { id: string; object: KubeObject; authored?: bigint | undefined }

/** One field on which sources disagree, with the ids of the sources that have it, sorted. */
export type FieldConflict = { field: string; sources: string[] }

/** The merged object, its conflicts, and the id of the source that counted as the newest. */
export type Merged = { object: KubeObject; conflicts: FieldConflict[]; newest: string }

type Keyed = { id: string; value: JsonValue }

const isMap = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

function rv(o: KubeObject): bigint {
  try {
    return BigInt(o.metadata.resourceVersion ?? '0')
  } catch {
    return 0n
  }
}

/** When the source counts as last updated: server-written values only (see the header). */
const updatedAt = (s: MergeSource): bigint => s.authored ?? rv(s.object)

/** Negative when `a` was updated before `b` (authored resourceVersion, resourceVersion, id). */
export function compareRecency(a: MergeSource, b: MergeSource): number {
  const ta = updatedAt(a)
  const tb = updatedAt(b)
  if (ta !== tb) return ta < tb ? -1 : 1
  const ra = rv(a.object)
  const rb = rv(b.object)
  if (ra !== rb) return ra < rb ? -1 : 1
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

function oldestFirst(sources: readonly MergeSource[]): MergeSource[] {
  return [...sources].sort(compareRecency)
}

/** The newest value, and a conflict when the values are not all equal JSON. */
function monolith(field: string, values: readonly Keyed[], conflicts: FieldConflict[]): JsonValue {
  const newest = values[values.length - 1] as Keyed
  if (new Set(values.map((v) => canonicalJson(v.value))).size > 1)
    conflicts.push({ field, sources: values.map((v) => v.id).sort() })
  return newest.value
}

/** Key-by-key merge of maps (oldest first); absent members contribute nothing. */
function byKey(
  field: (key: string) => string,
  maps: readonly { id: string; map: Record<string, JsonValue> }[],
  conflicts: FieldConflict[]
): JsonObject {
  const values = new Map<string, Keyed[]>()
  for (const { id, map } of maps) {
    for (const [k, value] of Object.entries(map)) {
      if (value === undefined) continue
      values.set(k, [...(values.get(k) ?? []), { id, value }])
    }
  }
  const out: JsonObject = {}
  for (const k of [...values.keys()].sort()) {
    out[k] = cloneJson(monolith(field(k), values.get(k) as Keyed[], conflicts))
  }
  return out
}

function ownerKey(r: { apiVersion?: unknown; kind?: unknown; name?: unknown }): string {
  return `${String(r.apiVersion ?? '')}/${String(r.kind ?? '')}/${String(r.name ?? '')}`
}

function mergeMetadata(sources: readonly MergeSource[], conflicts: FieldConflict[]): ObjectMeta {
  const newest = (sources[sources.length - 1] as MergeSource).object.metadata
  const { managedFields: _m, labels: _l, annotations: _a, ...rest } = newest
  const meta: ObjectMeta = cloneJson(rest as JsonObject) as ObjectMeta
  delete meta.ownerReferences
  delete meta.finalizers
  const mapOf = (pick: (m: ObjectMeta) => Record<string, string> | undefined) =>
    sources.map((s) => ({ id: s.id, map: pick(s.object.metadata) ?? {} }))
  const labels = byKey(
    (k) => `metadata.labels[${k}]`,
    mapOf((m) => m.labels),
    conflicts
  )
  const annotations = byKey(
    (k) => `metadata.annotations[${k}]`,
    mapOf((m) => m.annotations),
    conflicts
  )
  if (Object.keys(labels).length > 0) meta.labels = labels as Record<string, string>
  if (Object.keys(annotations).length > 0) meta.annotations = annotations as Record<string, string>
  const owners = sources.map((s) => ({
    id: s.id,
    map: Object.fromEntries(
      (s.object.metadata.ownerReferences ?? []).map((r) => [ownerKey(r), r as JsonValue])
    ),
  }))
  const refs = Object.values(byKey((k) => `metadata.ownerReferences[${k}]`, owners, conflicts))
  if (refs.length > 0) meta.ownerReferences = refs as ObjectMeta['ownerReferences']
  const finalizers = new Set(sources.flatMap((s) => s.object.metadata.finalizers ?? []))
  if (finalizers.size > 0) meta.finalizers = [...finalizers].sort()
  return meta
}

export function mergeObjects(sources: readonly MergeSource[]): Merged {
  const ordered = oldestFirst(sources)
  const newest = ordered[ordered.length - 1]
  if (!newest) throw new Error('mergeObjects needs at least one source')
  const conflicts: FieldConflict[] = []
  const object: KubeObject = {
    apiVersion: newest.object.apiVersion,
    kind: newest.object.kind,
    metadata: mergeMetadata(ordered, conflicts),
  }
  for (const field of ['spec', 'status']) {
    const values = ordered.map((s) => ({ id: s.id, value: s.object[field] ?? null }))
    const value = monolith(field, values, conflicts)
    if (value !== null) object[field] = cloneJson(value)
  }
  const others = new Set(
    ordered.flatMap((s) => Object.keys(s.object).filter((k) => !SPECIAL.has(k)))
  )
  for (const field of [...others].sort()) {
    const present = ordered
      .filter((s) => s.object[field] !== undefined)
      .map((s) => ({ id: s.id, value: s.object[field] as JsonValue }))
    object[field] = present.every((p) => isMap(p.value))
      ? byKey(
          (k) => `${field}[${k}]`,
          present.map((p) => ({ id: p.id, map: p.value as JsonObject })),
          conflicts
        )
      : cloneJson(monolith(field, present, conflicts))
  }
  return { object, conflicts, newest: newest.id }
}

const SPECIAL: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata', 'spec', 'status'])
