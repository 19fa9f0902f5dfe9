/**
 * The Locations an EdgePlacement selects, and those it does not with why: the rule behind its
 * `status.unselectedLocations` (written by the where step) and its dry-run preview. A Location is
 * selected when a locationSelector matches it (lib/placement/destinations.ts) and at least one of
 * its destinations has its mailbox; otherwise its reason is the first that holds of:
 * - SelectorMismatch: no locationSelector matches its labels (the message names, for each of the
 *   first selectors, the term that fails);
 * - LocationDeleting: it is being deleted;
 * - NotSyncTargets: its spec.resource is not synctargets;
 * - NoSyncTarget: its instanceSelector selects no live SyncTarget in its space (or it has none);
 * - NoMailbox: it has SyncTargets, but none of their mailboxes exists yet.
 * A Location some of whose SyncTargets have their mailbox is selected. The answer is bounded: the
 * count of all, and the first `MAX_UNSELECTED_LISTED` by (cluster, name), so the same world gives
 * the same list; only those get a message. One pass over the Locations and a sort: the selectors
 * are tested again only on Locations that are deleting or not of synctargets (the matching
 * already told the rest).
 * Locations without a space annotation or a name are not counted (nothing can select them).
 */
import type { LocationObject } from '../apis/edge-objects.ts'
import {
  MAX_UNSELECTED_LISTED,
  type UnselectedLocation,
  type UnselectedReason,
} from '../apis/placement-preview.ts'
import { labelMismatch } from '../kube/label-explain.ts'
import { type LabelSelector, matchesLabelSelector } from '../kube/label-selector.ts'
import { CLUSTER_ANNOTATION } from '../kube/types.ts'
import { type Destination, mailboxOfDestination } from './destinations.ts'

/** At most this many selectors are explained in a SelectorMismatch message. */
const EXPLAINED_SELECTORS = 3
/** At most this many SyncTargets are named in a NoMailbox message. */
const NAMED_SYNC_TARGETS = 3

export type UnselectedLocations = { count: number; items: UnselectedLocation[] }

/** The Locations selected (matched, with a destination that has its mailbox) and the others. */
export type LocationOutcome = { selected: LocationObject[]; unselected: UnselectedLocations }

export type LocationReasonsInput = {
  /** The placement's `spec.locationSelectors`. */
  selectors: readonly LabelSelector[]
  /** Every Location read (decoded), in any order. */
  locations: readonly LocationObject[]
  /** The Locations a selector matches (`matchingLocations`). */
  matched: readonly LocationObject[]
  /** Their destinations (`destinationsFor`). */
  destinations: readonly Destination[]
  /** Whether a mailbox exists; without it every mailbox counts as existing. */
  hasMailbox?: (mailbox: string) => boolean
}

const clusterOf = (l: LocationObject) => l.metadata.annotations?.[CLUSTER_ANNOTATION] ?? ''
const keyOf = (cluster: string, name: string) => `${cluster}\u0000${name}`
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

type Found = { location: LocationObject; cluster: string; name: string; reason: UnselectedReason }

/** The reason of a Location a selector matched, or undefined when it is selected. */
function matchedReason(
  dests: readonly Destination[],
  hasMailbox: ((mailbox: string) => boolean) | undefined
): UnselectedReason | undefined {
  if (dests.length === 0) return 'NoSyncTarget'
  if (hasMailbox && !dests.some((d) => hasMailbox(mailboxOfDestination(d)))) return 'NoMailbox'
  return undefined
}

/** The reason of a Location no selector matched as `matchingLocations` tests it. */
function otherReason(l: LocationObject, selectors: readonly LabelSelector[]): UnselectedReason {
  const deleting = !!l.metadata.deletionTimestamp
  const notSyncTargets = l.spec.resource.resource !== 'synctargets'
  if (!deleting && !notSyncTargets) return 'SelectorMismatch'
  if (!selectors.some((s) => matchesLabelSelector(l.metadata.labels, s))) return 'SelectorMismatch'
  return deleting ? 'LocationDeleting' : 'NotSyncTargets'
}

function mismatchMessage(l: LocationObject, selectors: readonly LabelSelector[]): string {
  if (selectors.length === 0) return 'spec.locationSelectors is empty: it selects no Location'
  const parts = selectors
    .slice(0, EXPLAINED_SELECTORS)
    .map(
      (s, i) =>
        `locationSelectors[${i}]: ${labelMismatch(l.metadata.labels, s, 'the Location') ?? 'matches'}`
    )
  const more = selectors.length - EXPLAINED_SELECTORS
  if (more > 0) parts.push(`and ${more} more selector${more === 1 ? '' : 's'}`)
  return parts.join('; ')
}

function messageOf(f: Found, selectors: readonly LabelSelector[], dests: Destination[]): string {
  switch (f.reason) {
    case 'SelectorMismatch':
      return mismatchMessage(f.location, selectors)
    case 'LocationDeleting':
      return 'the Location is being deleted'
    case 'NotSyncTargets': {
      const r = f.location.spec.resource
      return `its spec.resource is ${r.resource}.${r.group}, not synctargets.edge.kcp.io`
    }
    case 'NoSyncTarget':
      return f.location.spec.instanceSelector
        ? 'its instanceSelector selects no live SyncTarget in its space'
        : 'it has no instanceSelector, which selects no SyncTarget'
    case 'NoMailbox': {
      const names = dests.slice(0, NAMED_SYNC_TARGETS).map((d) => `"${d.syncTargetName}"`)
      const more = dests.length > NAMED_SYNC_TARGETS ? ', …' : ''
      return dests.length === 1
        ? `its SyncTarget ${names[0]} has no mailbox yet`
        : `none of its ${dests.length} SyncTargets (${names.join(', ')}${more}) has a mailbox yet`
    }
  }
}

export function locationOutcome(input: LocationReasonsInput): LocationOutcome {
  const { selectors, hasMailbox } = input
  const matched = new Set(input.matched.map((l) => keyOf(clusterOf(l), l.metadata.name ?? '')))
  const destsOf = new Map<string, Destination[]>()
  for (const d of input.destinations) {
    const k = keyOf(d.cluster, d.locationName)
    const at = destsOf.get(k)
    if (at) at.push(d)
    else destsOf.set(k, [d])
  }
  const found: Found[] = []
  const selected: LocationObject[] = []
  for (const location of input.locations) {
    const cluster = clusterOf(location)
    const name = location.metadata.name ?? ''
    if (!cluster || !name) continue
    const k = keyOf(cluster, name)
    const reason = matched.has(k)
      ? matchedReason(destsOf.get(k) ?? [], hasMailbox)
      : otherReason(location, selectors)
    if (reason) found.push({ location, cluster, name, reason })
    else selected.push(location)
  }
  found.sort((a, b) => compare(a.cluster, b.cluster) || compare(a.name, b.name))
  const items = found.slice(0, MAX_UNSELECTED_LISTED).map((f) => ({
    cluster: f.cluster,
    name: f.name,
    reason: f.reason,
    message: messageOf(f, selectors, destsOf.get(keyOf(f.cluster, f.name)) ?? []),
  }))
  selected.sort(
    (a, b) =>
      compare(clusterOf(a), clusterOf(b)) || compare(a.metadata.name ?? '', b.metadata.name ?? '')
  )
  return { selected, unselected: { count: found.length, items } }
}
