/**
 * Destinations of EdgePlacements, the "where" of the placement model. A Location is selected when
 * its labels match any of `spec.locationSelectors` (an absent or empty list selects nothing; `{}`
 * selects all); Locations being deleted, and Locations whose `spec.resource` is not `synctargets`,
 * select nothing. Its SyncTargets are those in the Location's own space matching
 * `spec.instanceSelector`; an absent instanceSelector selects none (kube's
 * LabelSelectorAsSelector(nil) is Nothing), and SyncTargets being deleted are skipped.
 * Destinations come out normalised, sorted and without exact duplicates. A destination's mailbox
 * is the one of its SyncTarget, so two Locations selecting one SyncTarget are one mailbox; read
 * back from a slice (`sliceDestinations`) it is one destination, with the first Location by name.
 * Placements, Locations and SyncTargets come decoded by their schemas (lib/apis/decode.ts).
 */
import type {
  EdgePlacementObject,
  LocationObject,
  SliceObject,
  SyncTargetObject,
} from '../apis/edge-objects.ts'
import type { SinglePlacement } from '../apis/edge-v1alpha1.ts'
import {
  type LabelSelector,
  labelSelectorRequirements,
  matchesLabelSelector,
  matchesRequirements,
} from '../kube/label-selector.ts'
import { CLUSTER_ANNOTATION, type KubeObject } from '../kube/types.ts'
import { mailboxName } from '../reconcile/keys.ts'
import { type LabelIndex, labelIndex } from './label-index.ts'

export type Destination = Required<SinglePlacement>

const clusterOf = (o: KubeObject): string => o.metadata.annotations?.[CLUSTER_ANNOTATION] ?? ''

/** `spec.locationSelectors` of an EdgePlacement. */
export function locationSelectorsOf(ep: EdgePlacementObject): LabelSelector[] {
  return ep.spec?.locationSelectors ?? []
}

const selectsSyncTargets = (location: LocationObject): boolean =>
  location.spec.resource.resource === 'synctargets'

/** The live Locations whose labels match any selector, ordered by (space id, name). */
export function matchingLocations(
  selectors: readonly LabelSelector[],
  locations: readonly LocationObject[]
): LocationObject[] {
  return locations
    .filter((l) => !l.metadata.deletionTimestamp && clusterOf(l) && selectsSyncTargets(l))
    .filter((l) => selectors.some((s) => matchesLabelSelector(l.metadata.labels, s)))
    .sort((a, b) => compareKeys(locationKey(a), locationKey(b)))
}

const locationKey = (l: LocationObject) => [clusterOf(l), l.metadata.name ?? '']

/**
 * One destination per (Location, live SyncTarget it selects in its own space). The SyncTargets of
 * each space are indexed by label once (label-index.ts), so a Location's selector is tested only
 * on the SyncTargets that carry one of the values it asks for.
 */
export function destinationsFor(
  locations: readonly LocationObject[],
  syncTargetsIn: (spaceId: string) => readonly SyncTargetObject[]
): Destination[] {
  const out: Destination[] = []
  const indexes = new Map<string, LabelIndex<SyncTargetObject>>()
  const indexOf = (space: string) => {
    let index = indexes.get(space)
    if (!index) {
      index = labelIndex(syncTargetsIn(space))
      indexes.set(space, index)
    }
    return index
  }
  for (const loc of locations) {
    const cluster = clusterOf(loc)
    // The instanceSelector's requirements, worked out once per Location (not per SyncTarget);
    // an absent or invalid selector selects nothing.
    const selector = loc.spec.instanceSelector
    const requirements = selector ? labelSelectorRequirements(selector) : undefined
    if (!requirements) continue
    for (const st of indexOf(cluster).candidates(requirements)) {
      if (st.metadata.deletionTimestamp || !st.metadata.name || !st.metadata.uid) continue
      if (!matchesRequirements(st.metadata.labels, requirements)) continue
      out.push({
        cluster,
        locationName: loc.metadata.name ?? '',
        syncTargetName: st.metadata.name,
        syncTargetUID: st.metadata.uid,
      })
    }
  }
  return canonicalDestinations(out)
}

const destKey = (d: Destination) => [d.cluster, d.locationName, d.syncTargetName, d.syncTargetUID]

function compareKeys(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? ''
    const y = b[i] ?? ''
    if (x !== y) return x < y ? -1 : 1
  }
  return 0
}

/**
 * Destinations in canonical form: exactly the four fields (a missing uid becomes ''), sorted by
 * (cluster, location, sync target, uid), exact duplicates removed.
 */
export function canonicalDestinations(list: readonly SinglePlacement[]): Destination[] {
  const all = list.map((d) => ({
    cluster: d.cluster,
    locationName: d.locationName,
    syncTargetName: d.syncTargetName,
    syncTargetUID: d.syncTargetUID ?? '',
  }))
  all.sort((a, b) => compareKeys(destKey(a), destKey(b)))
  return all.filter((d, i) => {
    const prev = all[i - 1]
    return !prev || compareKeys(destKey(prev), destKey(d)) !== 0
  })
}

export function sameDestinations(a: readonly Destination[], b: readonly Destination[]): boolean {
  return a.length === b.length && a.every((d, i) => compareKeys(destKey(d), destKey(b[i]!)) === 0)
}

/** The mailbox of a destination: the one of its SyncTarget. */
export const mailboxOfDestination = (d: Destination) => mailboxName(d.cluster, d.syncTargetUID)

/** Destinations unique per SyncTarget (mailbox), first (Location order) wins. */
export function uniqueDestinations(list: Iterable<Destination>): Destination[] {
  const out = new Map<string, Destination>()
  for (const d of list) {
    const mb = mailboxOfDestination(d)
    if (!out.has(mb)) out.set(mb, d)
  }
  return [...out.values()]
}

/**
 * What a SinglePlacementSlice says about its mailboxes: its destinations one per SyncTarget, each
 * with the first of its Locations by name (so every copy in one mailbox takes its customization
 * parameters from one Location, whichever placement selected it), in canonical order. A
 * destination without a SyncTarget uid names no mailbox and is left out.
 */
export function sliceDestinations(slice: Pick<SliceObject, 'destinations'>): Destination[] {
  const named = canonicalDestinations(slice.destinations ?? []).filter((d) => d.syncTargetUID)
  return uniqueDestinations(named)
}
