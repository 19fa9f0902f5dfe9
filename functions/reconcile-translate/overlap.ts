/**
 * Overlapping workloads at one destination (seed 003, "EdgePlacement objects"), pure. `gather`
 * groups what the placements naming the destination select by object key, one contribution per
 * workload space (two placements of one space selecting an object are one source, with both
 * placement names and the first Location by name), notes each space's grant (who it may be merged
 * with, trust-scopes.ts), and per API group runs the memory-free half of the version choice
 * (version-choice.ts) over the spaces contributing objects of that group, each described by its
 * registry (served versions, preferred version). `combine` then makes one object per key:
 * contributions of spaces thrown out for their group are not sent (the objects cannot be read at
 * the chosen version) and are an `APIVersionConflict`; of the rest, spaces that are not in one
 * trust scope are never merged, a `TrustScopeConflict` (trust-scopes.ts says which, if any, are
 * sent: the ones the destination's live copy came from, `holders`); those sent are customized for
 * the destination, read at the chosen version (the hub serves CRDs without conversion, so only
 * `apiVersion` changes) and, when more than one space remains, merged (merge.ts, ordered by the
 * server-written `authored` resourceVersions, authored-order.ts), each field the sources disagree
 * on a `MergeConflict`. Merge inputs leave out what a copy never carries from a source anyway
 * (kcp's system keys, the center-only executing count), so the spaces' own `kcp.io/cluster`
 * annotations are no conflict. A single contribution is passed through untouched. Every combined
 * object names the spaces it was made of (`spaces`): the copy's recorded sources.
 */

import type { Registry } from '../../lib/kube/registry.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { travelling } from '../../lib/placement/annotations.ts'
import type { PlacementRef } from '../../lib/placement/snapshot.ts'
import type { Selection, SourceObject } from '../../lib/placement/types.ts'
import type { WorkloadGrant } from '../../lib/tenancy/policy.ts'
import type { LocationRef } from './customization.ts'
import { type FieldConflict, mergeObjects } from './merge.ts'
import { delivery, type Trust, trustOf } from './trust-scopes.ts'
import { type Candidates, type VersionSource, versionCandidates } from './version-choice.ts'

export type OverlapSelection = {
  ref: PlacementRef
  selection: Selection
  registry: Registry
  location?: LocationRef | undefined
  /** The grant of the placement's space (the snapshot's `grantOf`); undefined: it is gone. */
  grant: WorkloadGrant | undefined
  /**
   * Per Rollout the selection's objects were sent from, the destination's place under it (its
   * wave and side of the cut: one revision, held-selections.ts); absent when every object goes
   * as it is.
   */
  revisions?: string
}

/** One workload space's object for a key, with the placements of that space selecting it. */
export type Contribution = {
  spaceId: string
  source: SourceObject
  placements: string[]
  location: LocationRef | undefined
}

export type Gathered = {
  /** Per object key, one contribution per space, sorted by space id. */
  byKey: Map<string, Contribution[]>
  /** Per API group of the selected objects, the candidate versions and thrown-out spaces. */
  groups: Map<string, Candidates>
  /** Whether two of the contributing spaces may be merged (their grants). */
  trust: Trust
}

/** The customized fresh projection of a source for this destination, or undefined. */
export type CustomizeFn = (
  spaceId: string,
  source: SourceObject,
  location: LocationRef | undefined
) => KubeObject | undefined

export type ConflictReason = 'MergeConflict' | 'APIVersionConflict' | 'TrustScopeConflict'

export type Conflict = {
  reason: ConflictReason
  key: string
  /** The spaces involved with their placements and the resourceVersion of their object. */
  sources: { spaceId: string; placements: string[]; resourceVersion: string }[]
  /** MergeConflict: the fields. APIVersionConflict: the group. TrustScopeConflict: none named. */
  fields: FieldConflict[]
  /** APIVersionConflict, TrustScopeConflict: the spaces whose object is not sent. */
  left?: string[]
  /**
   * APIVersionConflict: the spaces whose objects of the group are sent (why the others are not).
   * TrustScopeConflict: the spaces whose object is sent (possibly none).
   */
  kept?: string[]
}

export type Combined = {
  /** Per key, the chosen contribution's resource data and the (merged) object to project. */
  objects: Map<
    string,
    { source: SourceObject; object: KubeObject; spaceId: string; spaces: string[] }
  >
  conflicts: Conflict[]
}

/** What combine knows of the destination besides the contributions. */
export type CombineInputs = {
  customize?: CustomizeFn | undefined
  /** Per object key, the spaces the destination's live copy came from (its recorded sources). */
  holders?: ReadonlyMap<string, ReadonlySet<string>> | undefined
  /** Per `<space id>/<object key>`, when the contribution was last updated (authored-order.ts). */
  authored?: ReadonlyMap<string, bigint> | undefined
}

export const objectKey = (group: string, resource: string, namespace: string, name: string) =>
  `${group}/${resource}/${namespace}/${name}`

const firstLocation = (a: LocationRef | undefined, b: LocationRef | undefined) =>
  !a || (b && b.name < a.name) ? b : a

const keyOfSource = (s: SourceObject) =>
  objectKey(
    s.group,
    s.resource,
    s.namespaced ? (s.object.metadata.namespace ?? '') : '',
    s.object.metadata.name ?? ''
  )

export function gather(selections: readonly OverlapSelection[]): Gathered {
  const byKey = new Map<string, Contribution[]>()
  const groupSources = new Map<string, Map<string, VersionSource>>()
  const grants = new Map<string, WorkloadGrant | undefined>()
  for (const { ref, selection, registry, location, grant } of selections) {
    grants.set(ref.spaceId, grant)
    const name = ref.placement.metadata.name ?? ''
    for (const source of selection.objects) {
      const key = keyOfSource(source)
      const list = byKey.get(key) ?? []
      const had = list.find((c) => c.spaceId === ref.spaceId)
      if (had) {
        had.location = firstLocation(had.location, location)
        if (!had.placements.includes(name)) had.placements = [...had.placements, name].sort()
      } else {
        list.push({ spaceId: ref.spaceId, source, placements: [name], location })
        list.sort((a, b) => (a.spaceId < b.spaceId ? -1 : a.spaceId > b.spaceId ? 1 : 0))
      }
      byKey.set(key, list)
      const spaces = groupSources.get(source.group) ?? new Map<string, VersionSource>()
      if (!spaces.has(ref.spaceId)) {
        const g = registry.group(source.group)
        spaces.set(ref.spaceId, {
          id: ref.spaceId,
          versions: g?.versions ?? [source.version],
          preferred: g?.preferredVersion ?? source.version,
        })
      }
      groupSources.set(source.group, spaces)
    }
  }
  const groups = new Map<string, Candidates>()
  for (const [group, spaces] of groupSources)
    groups.set(group, versionCandidates([...spaces.values()]))
  return { byKey, groups, trust: trustOf(grants) }
}

const apiVersionOf = (group: string, version: string) => (group ? `${group}/${version}` : version)

/** What a contribution brings to a merge: its customized content over the source's metadata. */
function mergeInput(
  c: Contribution,
  customized: KubeObject | undefined,
  version: string
): KubeObject {
  const o = c.source.object
  const base = customized ?? o
  const { status, ...rest } = base
  const metadata = {
    ...o.metadata,
    labels: travelling(base.metadata.labels),
    annotations: travelling(base.metadata.annotations),
  }
  const input: KubeObject = { ...rest, apiVersion: apiVersionOf(c.source.group, version), metadata }
  if (o.status !== undefined) input.status = o.status
  else if (status !== undefined) input.status = status
  return input
}

const rvOf = (c: Contribution) => c.source.object.metadata.resourceVersion ?? ''

export function combine(
  gathered: Gathered,
  versionOf: (group: string) => string,
  more: CombineInputs = {}
): Combined {
  const { customize } = more
  const objects: Combined['objects'] = new Map()
  const conflicts: Conflict[] = []
  const describe = (c: Contribution) => ({
    spaceId: c.spaceId,
    placements: c.placements,
    resourceVersion: rvOf(c),
  })
  for (const [key, all] of gathered.byKey) {
    const group = all[0]?.source.group ?? ''
    const version = versionOf(group) || (all[0]?.source.version ?? '')
    const thrown = new Set(gathered.groups.get(group)?.thrownOut ?? [])
    const kept = all.filter((c) => !thrown.has(c.spaceId))
    if (kept.length < all.length) {
      const candidates = gathered.groups.get(group)
      conflicts.push({
        reason: 'APIVersionConflict',
        key,
        sources: all.map(describe),
        fields: [{ field: `apiVersion (group "${group}")`, sources: all.map((c) => c.spaceId) }],
        left: all.filter((c) => thrown.has(c.spaceId)).map((c) => c.spaceId),
        kept: candidates?.kept ?? [],
      })
    }
    const ids = kept.map((c) => c.spaceId)
    const { delivered, conflict } = delivery(ids, more.holders?.get(key), gathered.trust)
    if (conflict)
      conflicts.push({
        reason: 'TrustScopeConflict',
        key,
        sources: kept.map(describe),
        fields: [{ field: 'trust scope', sources: ids }],
        left: ids.filter((s) => !delivered.includes(s)),
        kept: delivered,
      })
    const sent = kept.filter((c) => delivered.includes(c.spaceId))
    const first = sent[0]
    if (!first) continue
    const customized = sent.map((c) => customize?.(c.spaceId, c.source, c.location))
    if (sent.length === 1) {
      const object = customized[0] ?? first.source.object
      const at = { ...object, apiVersion: apiVersionOf(group, version) }
      objects.set(key, {
        source: { ...first.source, version },
        object: at,
        spaceId: first.spaceId,
        spaces: [first.spaceId],
      })
      continue
    }
    const merged = mergeObjects(
      sent.map((c, i) => ({
        id: c.spaceId,
        object: mergeInput(c, customized[i], version),
        authored: more.authored?.get(`${c.spaceId}/${key}`),
      }))
    )
    const newest = sent.find((c) => c.spaceId === merged.newest) ?? first
    objects.set(key, {
      source: { ...newest.source, version },
      object: merged.object,
      spaceId: newest.spaceId,
      spaces: delivered,
    })
    if (merged.conflicts.length > 0)
      conflicts.push({
        reason: 'MergeConflict',
        key,
        sources: sent.map(describe),
        fields: merged.conflicts,
      })
  }
  return { objects, conflicts }
}
