/**
 * What a hub's placement steps made of the SinglePlacementSlices they listed, kept between batches
 * (one cache per hub, lib/hub/hub-caches.ts). Every batch still reads where the slices stand (the
 * steps stay level-based): first their versions alone (ObjectStore.versions: space, name and
 * resourceVersion, no body), and only when those differ from the listing kept, the slices
 * themselves. What it reuses is the work done on the same list: decoding each slice, grouping them
 * by placement and destination (slice-groups.ts) and the unions a placement's slices make
 * (`mergeSlices`), together with everything the batch memoizes per slice object (destination
 * indexes, `destinationsOf`). A list is the same when it names the same slices, by workspace,
 * namespace and name, at the same resourceVersions, in the same order: every write of any slice
 * issues a new resourceVersion (a slice deleted and created again included), and so moves the key.
 * At ten thousand destinations a batch of 500 mailboxes otherwise reads, decodes, indexes and
 * merges megabytes of slices again, twenty times per fleet-wide change. Values are shared by every
 * batch that gets them and never changed.
 */
import type { DecodeProblem } from '../apis/decode.ts'
import type { SliceObject } from '../apis/edge-objects.ts'
import { CLUSTER_ANNOTATION, type KubeObject } from '../kube/types.ts'
import { createLru } from '../lru.ts'
import type { StoredVersion } from '../store/types.ts'
import type { GroupedSlices } from './slice-groups.ts'

/** One listing of the slices, decoded and indexed. */
export type SliceIndex = GroupedSlices & {
  valid: SliceObject[]
  invalid: DecodeProblem[]
  /** Per `<space id>/<placement>/<owner uid>`: the union of that owner's slices (or none). */
  merged: Map<string, SliceObject | undefined>
}

export type SliceCache = {
  /** The index kept of the listing that stands at `versions` (list order), if any. */
  standing(versions: readonly StoredVersion[]): SliceIndex | undefined
  /** The index of `listed`, built by `build` unless the same list was indexed before. */
  index(listed: readonly KubeObject[], build: () => SliceIndex): SliceIndex
}

/**
 * Listings kept: the last one. One listing of 10,000 destinations, decoded and indexed, holds
 * about 8 MB (measured in Node); a Worker isolate has 128 MB.
 */
export const SLICE_LISTINGS = 1

const identity = (space: string, namespace: string, name: string, rv: string | number) =>
  `${space}/${namespace}/${name}@${rv}`

/** The key of a listing: each slice's workspace, namespace, name and resourceVersion, in order. */
export function listingKey(listed: readonly KubeObject[]): string {
  return listed
    .map(({ metadata: m }) =>
      identity(
        m.annotations?.[CLUSTER_ANNOTATION] ?? '',
        m.namespace ?? '',
        m.name ?? '',
        m.resourceVersion ?? ''
      )
    )
    .join('\n')
}

/** The key of the listing that stands at `versions`: equal to `listingKey` of that listing. */
export function versionsKey(versions: readonly StoredVersion[]): string {
  return versions.map((v) => identity(v.cluster, v.namespace, v.name, v.rv)).join('\n')
}

export function createSliceCache(limit = SLICE_LISTINGS): SliceCache {
  const kept = createLru<SliceIndex>(limit)
  return {
    standing: (versions) => kept.peek(versionsKey(versions)),
    index: (listed, build) => {
      // Without a resourceVersion a slice cannot be told apart from its next version.
      if (listed.some((o) => !o.metadata.resourceVersion)) return build()
      return kept.get(listingKey(listed), build)
    },
  }
}
