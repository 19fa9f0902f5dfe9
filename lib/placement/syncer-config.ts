/**
 * The SyncerConfig `the-one` of a mailbox (seed 001; reference §2.3, §7.7), the one home of the
 * concept: its name, how a mailbox's entries (the center's manifest, the agent's desired state) find
 * it, and how the translate step builds it — what the edge syncer downsyncs and upsyncs, from what
 * all EdgePlacements targeting that destination selected.
 * `namespaceScope` is the namespaces × namespaced resources cross product, `clusterScope` lists
 * cluster-scoped objects by name per resource, `upsync` is the union of the EPs' UpsyncSets. The
 * `apiVersion` of each triple is the version only (`v1`, `v2`...), the one given per resource; when
 * a group/resource is given with several versions the highest by kube version priority wins (v1 >
 * v1beta1 > v1alpha1; lib/kube/crd.ts). The output is canonical, so an unchanged input never causes
 * a rewrite: everything is sorted and deduplicated (namespaces; resources and clusterScope by group
 * then resource, with sorted names; upsync sets normalized — lists sorted and deduplicated, empty
 * ones omitted since empty and absent both mean none — then deduplicated by canonical JSON and
 * sorted by it; the placements were decoded, so every set is an UpsyncSet). Empty sections:
 * `namespaceScope` is always there, `{}` when there are no namespaces (as the seed shows after its
 * EP is deleted); empty lists (`resources`, `clusterScope`, `upsync`) are omitted. A clusterScope
 * entry never has `objects` omitted (which would mean ALL objects): a resource without selected
 * names is left out. Pure.
 */
import { EDGE_API_VERSION, type UpsyncSet } from '../apis/edge-v1alpha1.ts'
import { SYNCER_CONFIGS } from '../apis/gvr.ts'
import { compareKubeVersions } from '../kube/crd.ts'
import type { JsonObject, KubeObject } from '../kube/types.ts'
import { canonicalJson } from '../patch/json-values.ts'
import { PROJECTED_LABEL } from './annotations.ts'

export type ResourceRef = { group: string; version: string; resource: string }

export type SyncerConfigInput = {
  /** Union of the selected namespaces for this destination. */
  namespaces: string[]
  /** Namespaced resources that go to the edge (to-edge category only). */
  namespacedResources: ResourceRef[]
  /** Selected cluster-scoped objects that go to the edge (CRDs and Namespaces too), by resource. */
  clusterObjects: { ref: ResourceRef; names: string[] }[]
  /** The EPs' `spec.upsync` entries (UpsyncSets), concatenated. */
  upsync: UpsyncSet[]
}

/** The name of a mailbox's one SyncerConfig. */
export const SYNCER_CONFIG_NAME = 'the-one'

/** What names an entry of a mailbox's content (a manifest entry, a desired-state entry). */
export type EntryName = { group: string; resource: string; name: string }

/** Whether the entry is the mailbox's SyncerConfig `the-one`. */
export const isSyncerConfigEntry = (e: EntryName): boolean =>
  e.group === SYNCER_CONFIGS.group &&
  e.resource === SYNCER_CONFIGS.resource &&
  e.name === SYNCER_CONFIG_NAME

/** The SyncerConfig's entry among a mailbox's entries; undefined when it has none (yet). */
export function syncerConfigEntry<E extends EntryName>(entries: readonly E[]): E | undefined {
  return entries.find(isSyncerConfigEntry)
}

const sortedUnique = (list: Iterable<string>): string[] => [...new Set(list)].sort()
const compareStrings = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const grKey = (r: { group: string; resource: string }) => `${r.group}\u0000${r.resource}`

type Entry = { ref: ResourceRef; names: Set<string> }

/** One entry per group/resource at its highest version, names united; sorted by group, resource. */
function byGroupResource(
  items: readonly { ref: ResourceRef; names: readonly string[] }[]
): Entry[] {
  const out = new Map<string, Entry>()
  for (const { ref, names } of items) {
    const k = grKey(ref)
    const seen = out.get(k)
    if (!seen) {
      out.set(k, { ref, names: new Set(names) })
      continue
    }
    if (compareKubeVersions(ref.version, seen.ref.version) > 0) seen.ref = ref
    for (const n of names) seen.names.add(n)
  }
  return [...out.values()].sort(
    (a, b) =>
      compareStrings(a.ref.group, b.ref.group) || compareStrings(a.ref.resource, b.ref.resource)
  )
}

const triple = (r: ResourceRef): JsonObject => ({
  group: r.group,
  resource: r.resource,
  apiVersion: r.version,
})

/** An UpsyncSet in canonical form. */
function normalizeUpsyncSet(set: UpsyncSet): JsonObject {
  const out: JsonObject = { apiGroup: set.apiGroup ?? '' }
  for (const field of ['resources', 'namespaces', 'names'] as const) {
    const list = sortedUnique(set[field] ?? [])
    if (list.length > 0) out[field] = list
  }
  return out
}

function upsyncSets(sets: readonly UpsyncSet[]): JsonObject[] {
  const byJson = new Map<string, JsonObject>()
  for (const set of sets.map(normalizeUpsyncSet)) byJson.set(canonicalJson(set), set)
  return [...byJson.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v)
}

export function buildSyncerConfig(input: SyncerConfigInput): KubeObject {
  const namespaces = sortedUnique(input.namespaces)
  const resources = byGroupResource(
    input.namespacedResources.map((ref) => ({ ref, names: [] }))
  ).map((e) => triple(e.ref))
  const clusterScope = byGroupResource(input.clusterObjects)
    .filter((e) => e.names.size > 0)
    .map((e) => ({ ...triple(e.ref), objects: sortedUnique(e.names) }))
  const upsync = upsyncSets(input.upsync)

  const namespaceScope: JsonObject = {}
  if (namespaces.length > 0) {
    namespaceScope.namespaces = namespaces
    if (resources.length > 0) namespaceScope.resources = resources
  }
  const spec: JsonObject = { namespaceScope }
  if (clusterScope.length > 0) spec.clusterScope = clusterScope
  if (upsync.length > 0) spec.upsync = upsync

  return {
    apiVersion: EDGE_API_VERSION,
    kind: 'SyncerConfig',
    metadata: { name: SYNCER_CONFIG_NAME, labels: { [PROJECTED_LABEL]: 'yes' } },
    spec,
  }
}
