/**
 * The destinations a SinglePlacementSlice names, as customization and the reports need them: per
 * SyncTarget (inventory space id + SyncTarget uid, which is a mailbox) the Location whose labels
 * and annotations are its parameters. Which destinations those are — one per SyncTarget, the first
 * of its Locations by name, none without a SyncTarget uid — is the placement model's rule
 * (`sliceDestinations`, lib/placement/destinations.ts); here they are only reshaped and ordered by
 * how the reports name them.
 */
import type { SliceObject } from '../../lib/apis/edge-objects.ts'
import { sliceDestinations } from '../../lib/placement/destinations.ts'
import type { LocationRef } from './customization.ts'

export type Destination = {
  location: LocationRef
  syncTargetName: string
  syncTargetUid: string
}

type Slice = Pick<SliceObject, 'destinations'>

const sorted = new WeakMap<Slice, Destination[]>()
const byTarget = new WeakMap<Slice, Map<string, LocationRef>>()

/**
 * One destination per SyncTarget, with the first of its Locations by name; sorted by label.
 * Worked out once per slice object (a batch's slices are read once and not changed): a placement
 * of ten thousand destinations is asked about once per mailbox.
 */
export function destinationsOf(slice: Slice): readonly Destination[] {
  const known = sorted.get(slice)
  if (known) return known
  const out = computeDestinations(slice)
  sorted.set(slice, out)
  return out
}

function computeDestinations(slice: Slice): Destination[] {
  const keyed = sliceDestinations(slice).map((d) => {
    const dest: Destination = {
      location: { cluster: d.cluster, name: d.locationName },
      syncTargetName: d.syncTargetName,
      syncTargetUid: d.syncTargetUID,
    }
    return [label(dest), dest] as const
  })
  return keyed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, d]) => d)
}

/** The Location a slice names for one SyncTarget, if it names the SyncTarget at all. */
export function locationFor(
  slice: Slice,
  cluster: string,
  syncTargetUid: string
): LocationRef | undefined {
  let index = byTarget.get(slice)
  if (!index) {
    index = new Map(
      destinationsOf(slice).map((d) => [
        `${d.location.cluster}\u0000${d.syncTargetUid}`,
        d.location,
      ])
    )
    byTarget.set(slice, index)
  }
  return index.get(`${cluster}\u0000${syncTargetUid}`)
}

/** How reports name a destination: `<SyncTarget> (Location <space id>:<name>)`. */
export function label(d: Destination): string {
  return `${d.syncTargetName || d.syncTargetUid} (Location ${d.location.cluster}:${d.location.name})`
}
