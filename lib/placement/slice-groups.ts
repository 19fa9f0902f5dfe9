/**
 * The slices of one batch grouped by the EdgePlacement they belong to (slice-owner.ts), for the
 * placement steps' snapshot: an EdgePlacement's destinations may span several slices, so a reader
 * takes the union of the slices its live incarnation (uid) owns as its one slice (`mergeSlices`).
 * `byDestination` finds the placements naming a SyncTarget (inventory space id + uid) without
 * scanning every slice per mailbox, which at ten thousand destinations would make a batch
 * quadratic.
 */
import type { SliceObject } from '../apis/edge-objects.ts'
import { CLUSTER_ANNOTATION, type KubeObject } from '../kube/types.ts'
import { placementOfSlice, sliceOwnedBy } from './slice-owner.ts'

/** The slices (decoded) of one placement of one workload space, of any owner uid. */
export type SliceGroup = { spaceId: string; placement: string; slices: SliceObject[] }

export type GroupedSlices = {
  groups: SliceGroup[]
  /** Per destination (`destinationId`): the groups with a slice naming it. */
  byDestination: Map<string, SliceGroup[]>
  /**
   * The destinations named by slices of more than one workload space: the only ones where the
   * objects of different spaces can meet (and conflict).
   */
  meeting: Set<string>
}

export const destinationId = (inventorySpaceId: string, syncTargetUid: string) =>
  `${inventorySpaceId}\u0000${syncTargetUid}`

const spaceOf = (o: Pick<KubeObject, 'metadata'>) =>
  o.metadata.annotations?.[CLUSTER_ANNOTATION] ?? ''

export function groupSlices(slices: readonly SliceObject[]): GroupedSlices {
  const byKey = new Map<string, SliceGroup>()
  const byDestination = new Map<string, SliceGroup[]>()
  const meeting = new Set<string>()
  for (const slice of slices) {
    const spaceId = spaceOf(slice)
    const placement = placementOfSlice(slice) ?? ''
    const key = `${spaceId}/${placement}`
    let group = byKey.get(key)
    if (!group) {
      group = { spaceId, placement, slices: [] }
      byKey.set(key, group)
    }
    group.slices.push(slice)
    for (const d of slice.destinations ?? []) {
      if (!d.syncTargetUID) continue
      const id = destinationId(d.cluster, d.syncTargetUID)
      const at = byDestination.get(id) ?? []
      if (!at.includes(group)) at.push(group)
      byDestination.set(id, at)
      if (at.some((g) => g.spaceId !== spaceId)) meeting.add(id)
    }
  }
  return { groups: [...byKey.values()], byDestination, meeting }
}

/**
 * The slices `owner` (an EdgePlacement, by uid) owns as one slice: the first one's metadata and
 * all their destinations; undefined when it owns none of them.
 */
export function mergeSlices(
  slices: readonly SliceObject[],
  owner: Pick<KubeObject, 'metadata'>
): SliceObject | undefined {
  const owned = slices.filter((s) => sliceOwnedBy(s, owner))
  const [first] = owned
  if (!first) return undefined
  if (owned.length === 1) return first
  return { ...first, destinations: owned.flatMap((s) => s.destinations ?? []) }
}

const named = new WeakMap<SliceObject, Set<string>>()

/**
 * Whether a slice names the SyncTarget; the slice's destinations are indexed once per slice
 * object, so asking for each of ten thousand mailboxes is not ten thousand scans.
 */
export function namesDestination(
  slice: SliceObject,
  inventorySpaceId: string,
  syncTargetUid: string
): boolean {
  let ids = named.get(slice)
  if (!ids) {
    ids = new Set(
      (slice.destinations ?? []).map((d) => destinationId(d.cluster, d.syncTargetUID ?? ''))
    )
    named.set(slice, ids)
  }
  return ids.has(destinationId(inventorySpaceId, syncTargetUid))
}
