/**
 * Overlapping workloads at one destination (seed 003, "EdgePlacement objects"), pure. `gather`
 * groups what the placements naming the destination select by object key, one contribution per
 * workload space (two placements of one space selecting an object are one source, with both
 * placement names and the first Location by name), and per API group runs the memory-free half of
 * the version choice (version-choice.ts) over the spaces contributing objects of that group, each
 * described by its registry (served versions, preferred version). `combine` then makes one object
 * per key: contributions of spaces thrown out for their group are not sent (the objects cannot be
 * read at the chosen version) and are an `APIVersionConflict`; the rest are customized for the
 * destination, read at the chosen version (the hub serves CRDs without conversion, so only
 * `apiVersion` changes) and, when more than one space remains, merged (merge.ts), each field the
 * sources disagree on a `MergeConflict`. Merge inputs leave out what a copy never carries from a
 * source anyway (kcp's system keys, the center-only executing count), so the spaces' own
 * `kcp.io/cluster` annotations are no conflict. A single contribution is passed through untouched.
 */

import type { Registry } from '../../lib/kube/registry.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { travelling } from '../../lib/placement/annotations.ts'
import type { PlacementRef } from '../../lib/placement/snapshot.ts'
import type { Selection, SourceObject } from '../../lib/placement/types.ts'
import type { LocationRef } from './customization.ts'
import { type FieldConflict, mergeObjects } from './merge.ts'
import { type Candidates, type VersionSource, versionCandidates } from './version-choice.ts'

export type OverlapSelection = {
  ref: PlacementRef
  selection: Selection
  registry: Registry
  location?: LocationRef | undefined
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
}

/** The customized fresh projection of a source for this destination, or undefined. */
export type CustomizeFn = (
  spaceId: string,
  source: SourceObject,
  location: LocationRef | undefined
) => KubeObject | undefined

export type Conflict = {
  reason: 'MergeConflict' | 'APIVersionConflict'
  key: string
  /** The spaces involved with their placements and the resourceVersion of their object. */
  sources: { spaceId: string; placements: string[]; resourceVersion: string }[]
  /** MergeConflict: the fields. APIVersionConflict: the group. */
  fields: FieldConflict[]
  /** APIVersionConflict: the spaces whose object is not sent. */
  left?: string[]
  /** APIVersionConflict: the spaces whose objects of the group are sent (why the others are not). */
  kept?: string[]
}

export type Combined = {
  /** Per key, the chosen contribution's resource data and the (merged) object to project. */
  objects: Map<string, { source: SourceObject; object: KubeObject; spaceId: string }>
  conflicts: Conflict[]
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
  for (const { ref, selection, registry, location } of selections) {
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
  return { byKey, groups }
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
  customize?: CustomizeFn
): Combined {
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
    const first = kept[0]
    if (!first) continue
    const customized = kept.map((c) => customize?.(c.spaceId, c.source, c.location))
    if (kept.length === 1) {
      const object = customized[0] ?? first.source.object
      const at = { ...object, apiVersion: apiVersionOf(group, version) }
      objects.set(key, { source: { ...first.source, version }, object: at, spaceId: first.spaceId })
      continue
    }
    const merged = mergeObjects(
      kept.map((c, i) => ({ id: c.spaceId, object: mergeInput(c, customized[i], version) }))
    )
    const newest = kept.find((c) => c.spaceId === merged.newest) ?? first
    objects.set(key, {
      source: { ...newest.source, version },
      object: merged.object,
      spaceId: newest.spaceId,
    })
    if (merged.conflicts.length > 0)
      conflicts.push({
        reason: 'MergeConflict',
        key,
        sources: kept.map(describe),
        fields: merged.conflicts,
      })
  }
  return { objects, conflicts }
}
