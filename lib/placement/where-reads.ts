/**
 * The where of one EdgePlacement as it stands, read from the hub: the Locations its selectors
 * match, their destinations, and the Locations it does not select with why
 * (location-reasons.ts). The where step writes its slices and status from it, and a dry run's
 * preview shows it (preview.ts), so both say the same. Only the Locations the workload space is
 * granted count (lib/tenancy/granted-locations.ts): an ungranted one is neither matched nor listed
 * as unselected, so its labels never reach the tenant. Its reads are bounded whatever the fleet:
 * the tenancy policy (two lists in root), the workload space's path, one list of Locations across
 * spaces (and each of their spaces' paths, cached), one list of SyncTargets per space holding a matched
 * Location (a vanished space holds none), and — only when there are destinations — one list of
 * the Workspaces in root:espw, the mailboxes (one per SyncTarget, made by the mailbox step), never
 * a read per SyncTarget. Objects are decoded by their schemas as read; an invalid one goes to
 * `onInvalid` and selects nothing (nor is it listed as unselected). A failed read throws.
 */
import { type DecodeProblem, decodeEach } from '../apis/decode.ts'
import { LocationSchema, SyncTargetSchema } from '../apis/edge-inventory.ts'
import type { EdgePlacementObject, LocationObject, SyncTargetObject } from '../apis/edge-objects.ts'
import { ESPW, LOCATIONS, SYNC_TARGETS, WORKSPACES } from '../apis/gvr.ts'
import { isNotFound } from '../errors.ts'
import type { HubClient } from '../hub/client.ts'
import { CLUSTER_ANNOTATION } from '../kube/types.ts'
import { isMailboxName } from '../reconcile/keys.ts'
import { grantedLocations } from '../tenancy/granted-locations.ts'
import { loadTenancy, spacePathOf } from '../tenancy/load.ts'
import {
  type Destination,
  destinationsFor,
  locationSelectorsOf,
  matchingLocations,
} from './destinations.ts'
import { locationOutcome, type UnselectedLocations } from './location-reasons.ts'

export type WhereResolution = {
  /** The Locations a selector matches (what `status.matchingLocationCount` counts). */
  matched: LocationObject[]
  /** One per (matched Location, live SyncTarget it selects), canonical. */
  destinations: Destination[]
  /** The matched Locations with a destination whose mailbox exists, by (cluster, name). */
  selected: LocationObject[]
  /** The Locations not selected, counted, the first listed with their reasons. */
  unselected: UnselectedLocations
}

/** SyncTargets of each space holding a matched Location; a vanished space holds none. */
async function syncTargetsOf(
  client: HubClient,
  locations: readonly LocationObject[],
  onInvalid: (p: DecodeProblem) => void
): Promise<(spaceId: string) => readonly SyncTargetObject[]> {
  const bySpace = new Map<string, SyncTargetObject[]>()
  const spaces = new Set(locations.map((l) => l.metadata.annotations?.[CLUSTER_ANNOTATION] ?? ''))
  for (const id of spaces) {
    try {
      bySpace.set(id, decodeEach(SyncTargetSchema, await client.list(id, SYNC_TARGETS), onInvalid))
    } catch (e) {
      if (!isNotFound(e)) throw e
    }
  }
  return (id) => bySpace.get(id) ?? []
}

/** The names of the live mailbox Workspaces in root:espw (none while it does not exist). */
async function existingMailboxes(client: HubClient): Promise<Set<string>> {
  try {
    const live = (await client.list(ESPW, WORKSPACES)).filter((w) => !w.metadata.deletionTimestamp)
    return new Set(live.map((w) => w.metadata.name ?? '').filter(isMailboxName))
  } catch (e) {
    if (isNotFound(e)) return new Set()
    throw e
  }
}

/** The Locations of every space the workload space `spaceId` is granted (lib/tenancy/). */
async function grantedFor(
  client: HubClient,
  spaceId: string,
  onInvalid: (p: DecodeProblem) => void
): Promise<LocationObject[]> {
  const [policy, path, listed] = await Promise.all([
    loadTenancy(client),
    spacePathOf(client, spaceId),
    client.list('*', LOCATIONS),
  ])
  const grant = path === undefined ? undefined : policy.grantOf(path)
  const granted = await grantedLocations(client, policy, grant, listed as LocationObject[])
  return decodeEach(LocationSchema, granted, onInvalid)
}

/** The where of `ep`, an EdgePlacement of the workload space `spaceId`. */
export async function resolveWhere(
  client: HubClient,
  spaceId: string,
  ep: EdgePlacementObject,
  onInvalid: (p: DecodeProblem) => void
): Promise<WhereResolution> {
  const selectors = locationSelectorsOf(ep)
  const locations = await grantedFor(client, spaceId, onInvalid)
  const matched = matchingLocations(selectors, locations)
  const destinations = destinationsFor(matched, await syncTargetsOf(client, matched, onInvalid))
  const mailboxes = destinations.length > 0 ? await existingMailboxes(client) : new Set<string>()
  const { selected, unselected } = locationOutcome({
    selectors,
    locations,
    matched,
    destinations,
    hasMailbox: (mailbox) => mailboxes.has(mailbox),
  })
  return { matched, destinations, selected, unselected }
}
