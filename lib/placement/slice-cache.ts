/**
 * What a hub's placement steps made of the SinglePlacementSlices they listed, kept between batches
 * (one cache per hub, lib/hub/hub-caches.ts). Every batch still lists the slices afresh (the steps
 * stay level-based); what it reuses is the work done on the same list: decoding each slice,
 * grouping them by placement and destination (slice-groups.ts) and the unions a placement's
 * slices make (`mergeSlices`), together with everything the batch memoizes per slice object
 * (destination indexes, `destinationsOf`). A list is the same when it names the same slices, by
 * workspace, name and uid, at the same resourceVersions, in the same order: any write to any
 * slice moves its resourceVersion, and so its key. At ten thousand destinations a batch of 500
 * mailboxes otherwise decodes, indexes and merges all ten thousand of them again, twenty times
 * per fleet-wide change. Values are shared by every batch that gets them and never changed.
 */
import type { DecodeProblem } from '../apis/decode.ts'
import type { SliceObject } from '../apis/edge-objects.ts'
import { CLUSTER_ANNOTATION, type KubeObject } from '../kube/types.ts'
import { createLru } from '../lru.ts'
import type { GroupedSlices } from './slice-groups.ts'

/** One listing of the slices, decoded and indexed. */
export type SliceIndex = GroupedSlices & {
  valid: SliceObject[]
  invalid: DecodeProblem[]
  /** Per `<space id>/<placement>/<owner uid>`: the union of that owner's slices (or none). */
  merged: Map<string, SliceObject | undefined>
}

export type SliceCache = {
  /** The index of `listed`, built by `build` unless the same list was indexed before. */
  index(listed: readonly KubeObject[], build: () => SliceIndex): SliceIndex
}

/**
 * Listings kept: the last one. One listing of 10,000 destinations, decoded and indexed, holds
 * about 8 MB (measured in Node); a Worker isolate has 128 MB.
 */
export const SLICE_LISTINGS = 1

const identity = (o: KubeObject) => {
  const m = o.metadata
  return `${m.annotations?.[CLUSTER_ANNOTATION] ?? ''}/${m.name ?? ''}/${m.uid ?? ''}@${m.resourceVersion ?? ''}`
}

/** The key of a listing: each slice's workspace, name, uid and resourceVersion, in order. */
export function listingKey(listed: readonly KubeObject[]): string {
  return listed.map(identity).join('\n')
}

export function createSliceCache(limit = SLICE_LISTINGS): SliceCache {
  const kept = createLru<SliceIndex>(limit)
  return {
    index: (listed, build) => {
      // Without a resourceVersion a slice cannot be told apart from its next version.
      if (listed.some((o) => !o.metadata.resourceVersion)) return build()
      return kept.get(listingKey(listed), build)
    },
  }
}
