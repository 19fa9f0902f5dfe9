/**
 * The relay's in-memory index of SinglePlacementSlices for the translate step: per slice (space id
 * and name) the mailbox names of its destinations (`mailboxName(dest.cluster, dest.syncTargetUID)`,
 * the mailbox step's format), and per space the union over its slices. The translate step computes
 * a mailbox's whole content from the slices naming it and the objects of their workload spaces, so
 * an object in space S wakes the mailboxes `ofSpace(S)`, and a slice change wakes the mailboxes it
 * names now and the ones it named before (`set` returns those). Built from the slices watch, which
 * lists at every start; a relist drops the slices that vanished (`slices()` to compare).
 */

import type { KubeObject } from '../kube/types.ts'
import { isMailboxName, mailboxName } from '../reconcile/keys.ts'

export type SliceRef = { space: string; name: string }

export type SliceIndex = {
  /** Records a slice's mailboxes; returns the ones it had before (empty when new). */
  set(space: string, name: string, mailboxes: Iterable<string>): string[]
  /** Forgets a slice; returns the mailboxes it had. */
  remove(space: string, name: string): string[]
  ofSlice(space: string, name: string): string[]
  /** The mailboxes of every slice in the space, sorted. */
  ofSpace(space: string): string[]
  slices(): SliceRef[]
  /** Spaces holding at least one slice with at least one mailbox, sorted. */
  spaces(): string[]
}

type Destination = { cluster?: unknown; syncTargetUID?: unknown }

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

export function createSliceIndex(): SliceIndex {
  const bySpace = new Map<string, Map<string, Set<string>>>()
  const get = (space: string, name: string) => bySpace.get(space)?.get(name)
  const remove = (space: string, name: string): string[] => {
    const names = bySpace.get(space)
    const had = names?.get(name)
    if (!names || !had) return []
    names.delete(name)
    if (names.size === 0) bySpace.delete(space)
    return [...had].sort()
  }
  return {
    set(space, name, mailboxes) {
      const before = remove(space, name)
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
    slices() {
      const out: SliceRef[] = []
      for (const [space, names] of bySpace)
        for (const name of names.keys()) out.push({ space, name })
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
