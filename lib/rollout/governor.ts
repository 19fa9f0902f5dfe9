/**
 * Which Rollout governs an object two or more of them select (docs/architecture/placement.md,
 * "Rollout", two Rollouts): the oldest — creation time, then name — as overlapping placements'
 * merges order by age. The younger ones leave those objects out of their revisions and report a
 * Conflict naming the governor; the governor reports the younger ones. Pure.
 */

/** What the rule reads of a Rollout. */
export type Aged = { name: string; creationTimestamp: string }

/** Sorts older Rollouts first: creation time, then name. */
export const olderFirst = (a: Aged, b: Aged): number =>
  a.creationTimestamp === b.creationTimestamp
    ? a.name.localeCompare(b.name)
    : a.creationTimestamp.localeCompare(b.creationTimestamp)

/** Another Rollout selecting some of the same objects, and those objects' keys (sorted). */
export type Overlap = { name: string; keys: string[] }

export type Overlaps = {
  /** Older Rollouts that govern some of `me`'s objects. */
  governedBy: Overlap[]
  /** Younger Rollouts selecting some of the objects `me` governs. */
  alsoSelecting: Overlap[]
  /** The keys `me` governs: its own minus every key an older Rollout selects. */
  governs: Set<string>
}

/** Where `me` stands among `others` (the space's other Rollouts) with the keys each selects. */
export function overlapsOf(
  me: Aged & { keys: ReadonlySet<string> },
  others: readonly (Aged & { keys: ReadonlySet<string> })[]
): Overlaps {
  const governedBy: Overlap[] = []
  const alsoSelecting: Overlap[] = []
  const governs = new Set(me.keys)
  for (const other of [...others].sort(olderFirst)) {
    if (other.name === me.name) continue
    const shared = [...me.keys].filter((k) => other.keys.has(k)).sort()
    if (shared.length === 0) continue
    if (olderFirst(other, me) < 0) {
      governedBy.push({ name: other.name, keys: shared })
      for (const k of shared) governs.delete(k)
    } else alsoSelecting.push({ name: other.name, keys: shared })
  }
  return { governedBy, alsoSelecting, governs }
}
