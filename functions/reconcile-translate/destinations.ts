/**
 * The destinations a SinglePlacementSlice names, as customization needs them: per SyncTarget
 * (inventory space id + SyncTarget uid, which is a mailbox) the Location whose labels and
 * annotations are its parameters. The where step writes one destination per (Location, SyncTarget)
 * pair, so a SyncTarget selected by two Locations of its inventory space appears twice; the first
 * Location by name is used, so every copy in one mailbox sees one set of parameters whichever
 * placement selected it. A destination without a SyncTarget uid is skipped.
 */
import type { SliceObject } from '../../lib/apis/edge-objects.ts'
import type { LocationRef } from './customization.ts'

export type Destination = {
  location: LocationRef
  syncTargetName: string
  syncTargetUid: string
}

type Slice = Pick<SliceObject, 'destinations'>

function listed(slice: Slice): Destination[] {
  return (slice.destinations ?? []).flatMap((d) =>
    d.syncTargetUID === undefined
      ? []
      : [
          {
            location: { cluster: d.cluster, name: d.locationName },
            syncTargetName: d.syncTargetName,
            syncTargetUid: d.syncTargetUID,
          },
        ]
  )
}

/** One destination per SyncTarget, with the first of its Locations by name; sorted. */
export function destinationsOf(slice: Slice): Destination[] {
  const bySyncTarget = new Map<string, Destination>()
  for (const d of listed(slice)) {
    const key = `${d.location.cluster}\u0000${d.syncTargetUid}`
    const had = bySyncTarget.get(key)
    if (!had || d.location.name < had.location.name) bySyncTarget.set(key, d)
  }
  const keyed = [...bySyncTarget.values()].map((d) => [label(d), d] as const)
  return keyed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, d]) => d)
}

/** The Location a slice names for one SyncTarget, if it names the SyncTarget at all. */
export function locationFor(
  slice: Slice,
  cluster: string,
  syncTargetUid: string
): LocationRef | undefined {
  return destinationsOf(slice).find(
    (d) => d.location.cluster === cluster && d.syncTargetUid === syncTargetUid
  )?.location
}

/** How reports name a destination: `<SyncTarget> (Location <space id>:<name>)`. */
export function label(d: Destination): string {
  return `${d.syncTargetName || d.syncTargetUid} (Location ${d.location.cluster}:${d.location.name})`
}
