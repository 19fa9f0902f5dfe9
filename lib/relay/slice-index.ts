/**
 * The relay's in-memory index of SinglePlacementSlices for the translate step: per slice (space id
 * and name) the mailbox names of its destinations (`mailboxName(dest.cluster, dest.syncTargetUID)`,
 * the mailbox step's format), and per space the union over its slices. The translate step computes
 * a mailbox's whole content from the slices naming it and the objects of their workload spaces, so
 * an object in space S wakes the mailboxes `ofSpace(S)`, and a slice change wakes the mailboxes it
 * names now and the ones it named before (`set` returns those). Per slice it also keeps which
 * Location each mailbox came through (`destinationsOfSlice`), so a Location change wakes the
 * mailboxes whose copies take their parameters from it (`ofLocation`; customization). Built from
 * the slices watch, which lists at every start; a relist drops the slices that vanished
 * (`slices()` to compare).
 */

import type { KubeObject } from '../kube/types.ts'
import { isMailboxName, mailboxName } from '../reconcile/keys.ts'

export type SliceRef = { space: string; name: string }

/** One destination of a slice: the Location (inventory space id + name) and the mailbox. */
export type LocationMailbox = { cluster: string; locationName: string; mailbox: string }

export type SliceIndex = {
  /**
   * Records a slice's mailboxes (and, when given, the Locations they came through); returns the
   * mailboxes it had before (empty when new).
   */
  set(
    space: string,
    name: string,
    mailboxes: Iterable<string>,
    locations?: Iterable<LocationMailbox>
  ): string[]
  /** Forgets a slice; returns the mailboxes it had. */
  remove(space: string, name: string): string[]
  ofSlice(space: string, name: string): string[]
  /** The mailboxes of every slice in the space, sorted. */
  ofSpace(space: string): string[]
  /** The mailboxes that some slice reaches through this Location, sorted. */
  ofLocation(cluster: string, locationName: string): string[]
  slices(): SliceRef[]
  /** The slices naming a mailbox, in no particular order. */
  slicesNaming(mailbox: string): SliceRef[]
  /** Spaces holding at least one slice with at least one mailbox, sorted. */
  spaces(): string[]
}

type Destination = { cluster?: unknown; locationName?: unknown; syncTargetUID?: unknown }

/** The mailbox names of a slice's `destinations`; entries lacking a field are skipped. */
export function mailboxesOfSlice(slice: KubeObject): string[] {
  const dests = Array.isArray(slice.destinations) ? (slice.destinations as Destination[]) : []
  const out = new Set<string>()
  for (const d of dests) {
    if (typeof d !== 'object' || d === null) continue
    if (typeof d.cluster !== 'string' || typeof d.syncTargetUID !== 'string') continue
    const name = mailboxName(d.cluster, d.syncTargetUID)
    if (isMailboxName(name)) out.add(name)
  }
  return [...out].sort()
}

/** The (Location, mailbox) pairs of a slice's `destinations`; entries lacking a field skipped. */
export function destinationsOfSlice(slice: KubeObject): LocationMailbox[] {
  const dests = Array.isArray(slice.destinations) ? (slice.destinations as Destination[]) : []
  const out: LocationMailbox[] = []
  for (const d of dests) {
    if (typeof d !== 'object' || d === null) continue
    const { cluster, locationName, syncTargetUID } = d
    if (typeof cluster !== 'string' || typeof syncTargetUID !== 'string') continue
    if (typeof locationName !== 'string') continue
    const mailbox = mailboxName(cluster, syncTargetUID)
    if (isMailboxName(mailbox)) out.push({ cluster, locationName, mailbox })
  }
  return out
}

const locationKey = (cluster: string, locationName: string) => `${cluster}\u0000${locationName}`
const sliceKey = (space: string, name: string) => `${space}\u0000${name}`

export function createSliceIndex(): SliceIndex {
  const bySpace = new Map<string, Map<string, Set<string>>>()
  /** Per slice: Location key -> mailboxes reached through it. */
  const locations = new Map<string, Map<string, Set<string>>>()
  const get = (space: string, name: string) => bySpace.get(space)?.get(name)
  const remove = (space: string, name: string): string[] => {
    locations.delete(sliceKey(space, name))
    const names = bySpace.get(space)
    const had = names?.get(name)
    if (!names || !had) return []
    names.delete(name)
    if (names.size === 0) bySpace.delete(space)
    return [...had].sort()
  }
  return {
    set(space, name, mailboxes, through = []) {
      const before = remove(space, name)
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
    slices() {
      const out: SliceRef[] = []
      for (const [space, names] of bySpace)
        for (const name of names.keys()) out.push({ space, name })
      return out
    },
    slicesNaming(mailbox) {
      const out: SliceRef[] = []
      for (const [space, names] of bySpace)
        for (const [name, mbs] of names) if (mbs.has(mailbox)) out.push({ space, name })
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
