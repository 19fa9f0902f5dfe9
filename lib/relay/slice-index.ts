/**
 * The relay's in-memory index of SinglePlacementSlices for the translate step: per slice (space id
 * and name) the mailbox names of its destinations (`mailboxName(dest.cluster, dest.syncTargetUID)`,
 * the mailbox step's format), and per space the union over its slices. The translate step computes
 * a mailbox's whole content from the slices naming it and the objects of their workload spaces, so
 * an object in space S wakes the mailboxes `ofSpace(S)`, and a slice change wakes the mailboxes it
 * names now and the ones it named before (`set` returns those). Per slice it also keeps which
 * Location each mailbox came through (`destinationsOfSlice`), so a Location change wakes the
 * mailboxes whose copies take their parameters from it (`ofLocation`; customization), and a
 * Rollout's status move wakes the mailboxes whose wave it moves (`destinationsOfSpace`, the pairs
 * rollout-keys.ts judges by their Locations' labels). Per slice it
 * keeps the EdgePlacement it belongs to (lib/placement/slice-owner.ts; a placement's destinations
 * may span several slices), so a placement's mailboxes are those of all its slices
 * (`ofPlacement`) and a slice's summarize key is its placement's. Built from
 * the slices watch, which lists at every start; a relist drops the slices that vanished
 * (`slices()` to compare). A watched slice is read as the steps read it: decoded by its schema
 * (lib/apis/decode.ts; one that does not decode names nothing, as the translate step leaves it
 * out) and its destinations in the placement model's form (lib/placement/destinations.ts). Still
 * skipped here, explicitly: destinations without a SyncTarget uid or whose mailbox name is not
 * valid (a stored slice is not checked against the key format), which name no mailbox.
 */

import { decodeObject } from '../apis/decode.ts'
import { SinglePlacementSliceSchema } from '../apis/edge-v1alpha1.ts'
import type { KubeObject } from '../kube/types.ts'
import {
  canonicalDestinations,
  type Destination,
  mailboxOfDestination,
  sliceDestinations,
} from '../placement/destinations.ts'
import { isMailboxName } from '../reconcile/keys.ts'

/** A slice (space id, name) and the EdgePlacement (same space) it belongs to. */
export type SliceRef = { space: string; name: string; placement: string }

/** What the index keeps of a slice besides its mailboxes. */
export type SliceFacts = {
  /** The Locations its mailboxes are reached through. */
  locations?: Iterable<LocationMailbox>
  /** The EdgePlacement it belongs to; its own name when not given. */
  placement?: string
}

/** One destination of a slice: the Location (inventory space id + name) and the mailbox. */
export type LocationMailbox = { cluster: string; locationName: string; mailbox: string }

export type SliceIndex = {
  /**
   * Records a slice's mailboxes (and, when given, the Locations they came through); returns the
   * mailboxes it had before (empty when new).
   */
  set(space: string, name: string, mailboxes: Iterable<string>, more?: SliceFacts): string[]
  /** Forgets a slice; returns the mailboxes it had. */
  remove(space: string, name: string): string[]
  ofSlice(space: string, name: string): string[]
  /** The mailboxes of every slice of an EdgePlacement, sorted. */
  ofPlacement(space: string, placement: string): string[]
  /** The mailboxes of every slice in the space, sorted. */
  ofSpace(space: string): string[]
  /** The mailboxes that some slice reaches through this Location, sorted. */
  ofLocation(cluster: string, locationName: string): string[]
  /** Every (Location, mailbox) pair the slices of the space name, each once. */
  destinationsOfSpace(space: string): LocationMailbox[]
  slices(): SliceRef[]
  /** The slices naming a mailbox, in no particular order. */
  slicesNaming(mailbox: string): SliceRef[]
  /** Spaces holding at least one slice with at least one mailbox, sorted. */
  spaces(): string[]
}

/** The stored slice's `destinations`, in canonical form; none when the slice does not decode. */
function storedDestinations(slice: KubeObject): Destination[] {
  const decoded = decodeObject(SinglePlacementSliceSchema, slice)
  return decoded.ok ? canonicalDestinations(decoded.value.destinations ?? []) : []
}

/** Whether a destination names a mailbox: a SyncTarget uid, and a valid mailbox name. */
const namesMailbox = (d: Destination) =>
  d.syncTargetUID !== '' && isMailboxName(mailboxOfDestination(d))

/** The mailbox names of a slice's destinations, sorted (one per SyncTarget). */
export function mailboxesOfSlice(slice: KubeObject): string[] {
  const named = sliceDestinations({ destinations: storedDestinations(slice) }).filter(namesMailbox)
  return named.map(mailboxOfDestination).sort()
}

/**
 * The (Location, mailbox) pairs of a slice's destinations: every Location a mailbox is reached
 * through, not only the one its copies take parameters from (a wake too many costs a translation
 * that writes nothing; one too few would leave a copy with stale parameters).
 */
export function destinationsOfSlice(slice: KubeObject): LocationMailbox[] {
  return storedDestinations(slice)
    .filter(namesMailbox)
    .map((d) => ({
      cluster: d.cluster,
      locationName: d.locationName,
      mailbox: mailboxOfDestination(d),
    }))
}

/** The key a Location goes by in the relay's indexes: `<inventory space id>\u0000<name>`. */
export const locationKey = (cluster: string, locationName: string) =>
  `${cluster}\u0000${locationName}`
const sliceKey = (space: string, name: string) => `${space}\u0000${name}`

export function createSliceIndex(): SliceIndex {
  const bySpace = new Map<string, Map<string, Set<string>>>()
  /** Per slice: Location key -> mailboxes reached through it. */
  const locations = new Map<string, Map<string, Set<string>>>()
  /** Per slice: the EdgePlacement it belongs to, where not its own name. */
  const owners = new Map<string, string>()
  const get = (space: string, name: string) => bySpace.get(space)?.get(name)
  const placementOf = (space: string, name: string) => owners.get(sliceKey(space, name)) ?? name
  const remove = (space: string, name: string): string[] => {
    locations.delete(sliceKey(space, name))
    owners.delete(sliceKey(space, name))
    const names = bySpace.get(space)
    const had = names?.get(name)
    if (!names || !had) return []
    names.delete(name)
    if (names.size === 0) bySpace.delete(space)
    return [...had].sort()
  }
  return {
    set(space, name, mailboxes, { locations: through = [], placement = name } = {}) {
      const before = remove(space, name)
      if (placement !== name) owners.set(sliceKey(space, name), placement)
      const byLocation = new Map<string, Set<string>>()
      for (const d of through) {
        const k = locationKey(d.cluster, d.locationName)
        byLocation.set(k, (byLocation.get(k) ?? new Set()).add(d.mailbox))
      }
      if (byLocation.size > 0) locations.set(sliceKey(space, name), byLocation)
      let names = bySpace.get(space)
      if (!names) {
        names = new Map()
        bySpace.set(space, names)
      }
      names.set(name, new Set(mailboxes))
      return before
    },
    remove,
    ofSlice: (space, name) => [...(get(space, name) ?? [])].sort(),
    ofPlacement(space, placement) {
      const out = new Set<string>()
      for (const [name, mbs] of bySpace.get(space) ?? [])
        if (placementOf(space, name) === placement) for (const m of mbs) out.add(m)
      return [...out].sort()
    },
    ofSpace(space) {
      const out = new Set<string>()
      for (const mbs of bySpace.get(space)?.values() ?? []) for (const m of mbs) out.add(m)
      return [...out].sort()
    },
    ofLocation(cluster, locationName) {
      const k = locationKey(cluster, locationName)
      const out = new Set<string>()
      for (const byLocation of locations.values())
        for (const m of byLocation.get(k) ?? []) out.add(m)
      return [...out].sort()
    },
    destinationsOfSpace(space) {
      const out = new Map<string, LocationMailbox>()
      for (const name of bySpace.get(space)?.keys() ?? [])
        for (const [k, mbs] of locations.get(sliceKey(space, name)) ?? []) {
          const [cluster = '', locationName = ''] = k.split('\u0000')
          for (const mailbox of mbs)
            out.set(`${k}\u0000${mailbox}`, { cluster, locationName, mailbox })
        }
      return [...out.values()]
    },
    slices() {
      const out: SliceRef[] = []
      for (const [space, names] of bySpace)
        for (const name of names.keys())
          out.push({ space, name, placement: placementOf(space, name) })
      return out
    },
    slicesNaming(mailbox) {
      const out: SliceRef[] = []
      for (const [space, names] of bySpace)
        for (const [name, mbs] of names)
          if (mbs.has(mailbox)) out.push({ space, name, placement: placementOf(space, name) })
      return out
    },
    spaces() {
      const out: string[] = []
      for (const [space, names] of bySpace)
        if ([...names.values()].some((m) => m.size > 0)) out.push(space)
      return out.sort()
    },
  }
}
