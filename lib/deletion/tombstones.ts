/**
 * Tombstones in a mailbox's manifest, the translate side of the deletion lifecycle (lifecycle.ts,
 * state 2 to 4): a copy that leaves a mailbox does not vanish from its manifest; it becomes a
 * tombstone (`removing`: when the center recorded it) and stays until the edge reports it gone (its
 * copy state, same uid, says `gone`). Applied to the live content translate computed, with the
 * previous manifest:
 * - every live entry gets its `sources` (the workload spaces and EdgePlacements selecting it for
 *   this destination; bookkeeping, no change of the copy);
 * - a previous entry no longer desired turns into a tombstone with the same body, uid, generation
 *   and sources (Namespaces never leave, translate keeps them; the SyncerConfig is always live);
 * - a tombstone whose state says gone is dropped (DELETED in the mailbox), any other stays as it
 *   was (its removal time does not move);
 * - a leaving copy its edge never received is dropped at once, tombstone or not: no manifest
 *   version holding it was served to the mailbox's agent (`neverReceived`: the mailbox's served
 *   mark is below the version that added the copy, or the agent was never served at all), so
 *   there is nothing at the edge to wait for — SyncTargets whose agent never connected do not
 *   collect terminating copies;
 * - a tombstone desired again is revived: the live entry replaces it, same uid.
 * An entry whose previous body cannot be read cannot be kept and is dropped at once (bodies are
 * immutable and kept while referenced, so this does not happen in practice). Pure; the I/O around
 * it is functions/reconcile-translate/removal-plan.ts.
 */
import { timestamp } from '../kube/time.ts'
import type { KubeObject } from '../kube/types.ts'
import { copyKeyOf } from '../placement/copy-key.ts'
import type { SourceObject } from '../placement/types.ts'
import { entryKey } from '../store/projection-diff.ts'
import type {
  DesiredEntry,
  EntrySource,
  ManifestEntry,
  ServedMark,
  StoredCopyState,
} from '../store/projection-types.ts'
import { isConfirmedGone } from './lifecycle.ts'

/** What sourcesOf needs of a placement's selection. */
export type SelectionSources = {
  ref: { spaceId: string; placement: KubeObject }
  selection: { objects: readonly SourceObject[] }
}

/** Per object key, the spaces and placements selecting it (spaces and placements sorted). */
export function sourcesOf(selections: readonly SelectionSources[]): Map<string, EntrySource[]> {
  const by = new Map<string, Map<string, Set<string>>>()
  for (const { ref, selection } of selections) {
    const placement = ref.placement.metadata.name ?? ''
    for (const o of selection.objects) {
      const key = entryKey(copyKeyOf(o))
      const spaces = by.get(key) ?? new Map<string, Set<string>>()
      spaces.set(ref.spaceId, (spaces.get(ref.spaceId) ?? new Set()).add(placement))
      by.set(key, spaces)
    }
  }
  return new Map(
    [...by].map(([key, spaces]) => [
      key,
      [...spaces]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([space, names]) => ({ space, placements: [...names].sort() })),
    ])
  )
}

export type RemovalInput = {
  /** The live content desired.ts computed. */
  desired: readonly DesiredEntry[]
  previous: readonly ManifestEntry[]
  bodies: ReadonlyMap<string, KubeObject>
  /** Copy states of the previous tombstones, by entryKey. */
  states: ReadonlyMap<string, StoredCopyState>
  sources: ReadonlyMap<string, EntrySource[]>
  /** What the mailbox's agent was served (ProjectionStore.getServed). */
  served: ServedMark
  now: Date
}

/** True when no manifest version holding `entry` was served to its mailbox's agent. */
export function neverReceived(entry: Pick<ManifestEntry, 'added'>, served: ServedMark): boolean {
  if (served.kind === 'unknown') return false
  if (served.kind === 'never') return true
  return entry.added !== undefined && served.version < entry.added
}

/** The entries to write: live ones with sources, then the tombstones kept or made. */
export function withRemovals(input: RemovalInput): DesiredEntry[] {
  const out: DesiredEntry[] = input.desired.map((d) => {
    const sources = input.sources.get(entryKey(d))
    return sources ? { ...d, sources } : d
  })
  const live = new Set(out.map(entryKey))
  for (const prev of input.previous) {
    const key = entryKey(prev)
    if (live.has(key)) continue
    if (prev.removing && isConfirmedGone(prev, input.states.get(key))) continue
    if (neverReceived(prev, input.served)) continue
    const body = input.bodies.get(prev.hash)
    if (!body) continue
    const { group, version, resource, namespace, name, sources } = prev
    out.push({
      ...{ group, version, resource, namespace, name, body },
      removing: prev.removing ?? timestamp(input.now),
      ...(sources?.length ? { sources } : {}),
    })
  }
  return out
}

/** The workload spaces some tombstone of `entries` is sourced from. */
export function departedSpaces(
  entries: readonly Pick<ManifestEntry, 'removing' | 'sources'>[]
): Set<string> {
  const out = new Set<string>()
  for (const e of entries) {
    if (!e.removing) continue
    for (const s of e.sources ?? []) out.add(s.space)
  }
  return out
}
