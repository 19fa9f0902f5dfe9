/**
 * The translate step's part of the deletion lifecycle (lib/deletion/lifecycle.ts), the I/O around
 * lib/deletion/tombstones.ts for one mailbox: reads the copy states of the previous tombstones
 * (one BatchGetItem per 100; none without tombstones) and, when some copy leaves or stays a
 * tombstone, what the mailbox's agent was served (one GetItem), computes the entries to write, and keeps
 * the departures records (lib/deletion/departures.ts) in step — a workload space that gets its
 * first tombstone here has this mailbox listed BEFORE the manifest write (so a summarize run never
 * sees a tombstone its record misses), one whose last tombstone goes is unlisted by `settle()`,
 * called only AFTER the write succeeded. A live copy's sources are the spaces it was made of
 * (desired.ts `madeOf`), not every space selecting its identity: a space whose object of that
 * identity is not sent there (another trust scope holds the copy, or its version was left out) is
 * no source of it, so its summaries, finalizers and views never take the copy for its own.
 */
import { addDeparture, removeDeparture } from '../../lib/deletion/departures.ts'
import { departedSpaces, sourcesOf, withRemovals } from '../../lib/deletion/tombstones.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { entryKey } from '../../lib/store/projection-diff.ts'
import type {
  DesiredEntry,
  EntrySource,
  Manifest,
  ProjectionStore,
  StoredCopyState,
} from '../../lib/store/projection-types.ts'
import type { KvStore } from '../../lib/store/types.ts'
import type { PlacementSelection } from './desired.ts'

export type RemovalDeps = { projections: ProjectionStore; kv: KvStore; now: () => Date }

export type RemovalPlan = { entries: DesiredEntry[]; settle(): Promise<void> }

/** The selecting spaces of each copy, narrowed to the spaces it was made of. */
function sentSources(
  chosen: readonly PlacementSelection[],
  madeOf: ReadonlyMap<string, readonly string[]>
): Map<string, EntrySource[]> {
  const all = sourcesOf(chosen)
  for (const [key, list] of all) {
    const spaces = madeOf.get(key)
    if (spaces)
      all.set(
        key,
        list.filter((s) => spaces.includes(s.space))
      )
  }
  return all
}

export async function planRemovals(
  deps: RemovalDeps,
  mailbox: { id: string; name: string },
  at: {
    chosen: readonly PlacementSelection[]
    current: Manifest | undefined
    bodies: ReadonlyMap<string, KubeObject>
    desired: readonly DesiredEntry[]
    /** Per object key, the spaces each live copy was made of (desired.ts). */
    madeOf: ReadonlyMap<string, readonly string[]>
  }
): Promise<RemovalPlan> {
  const { chosen, current, bodies, desired, madeOf } = at
  const previous = current?.entries ?? []
  const tombstones = previous.filter((e) => e.removing)
  const live = new Set(desired.map(entryKey))
  const leaving = previous.some((e) => !live.has(entryKey(e)))
  const [states, served] = await Promise.all([
    tombstones.length > 0
      ? deps.projections.getCopyStates(mailbox.id, tombstones)
      : new Map<string, StoredCopyState>(),
    leaving ? deps.projections.getServed(mailbox.id) : ({ kind: 'unknown' } as const),
  ])
  const entries = withRemovals({
    desired,
    previous,
    bodies,
    states,
    sources: sentSources(chosen, madeOf),
    served,
    now: deps.now(),
  })
  const before = departedSpaces(previous)
  const after = departedSpaces(entries)
  await addDeparture(
    deps.kv,
    [...after].filter((s) => !before.has(s)),
    mailbox.name
  )
  return {
    entries,
    settle: () =>
      removeDeparture(
        deps.kv,
        [...before].filter((s) => !after.has(s)),
        mailbox.name
      ),
  }
}
