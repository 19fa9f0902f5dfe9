/**
 * The translate step's part of the deletion lifecycle (lib/deletion/lifecycle.ts), the I/O around
 * lib/deletion/tombstones.ts for one mailbox: reads the copy states of the previous tombstones
 * (one BatchGetItem per 100; none without tombstones) and, when some copy leaves or stays a
 * tombstone, what the mailbox's agent was served (one GetItem), computes the entries to write, and keeps
 * the departures records (lib/deletion/departures.ts) in step — a workload space that gets its
 * first tombstone here has this mailbox listed BEFORE the manifest write (so a summarize run never
 * sees a tombstone its record misses), one whose last tombstone goes is unlisted by `settle()`,
 * called only AFTER the write succeeded.
 */
import { addDeparture, removeDeparture } from '../../lib/deletion/departures.ts'
import { departedSpaces, sourcesOf, withRemovals } from '../../lib/deletion/tombstones.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { entryKey } from '../../lib/store/projection-diff.ts'
import type {
  DesiredEntry,
  Manifest,
  ProjectionStore,
  StoredCopyState,
} from '../../lib/store/projection-types.ts'
import type { KvStore } from '../../lib/store/types.ts'
import type { PlacementSelection } from './desired.ts'

export type RemovalDeps = { projections: ProjectionStore; kv: KvStore; now: () => Date }

export type RemovalPlan = { entries: DesiredEntry[]; settle(): Promise<void> }

export async function planRemovals(
  deps: RemovalDeps,
  mailbox: { id: string; name: string },
  at: {
    chosen: readonly PlacementSelection[]
    current: Manifest | undefined
    bodies: ReadonlyMap<string, KubeObject>
    desired: readonly DesiredEntry[]
  }
): Promise<RemovalPlan> {
  const { chosen, current, bodies, desired } = at
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
    sources: sourcesOf(chosen),
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
