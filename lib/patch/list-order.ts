/**
 * Item order of merged lists in strategic merge patch, following kube's rules: items the patch
 * mentions (in its list or in `$setElementOrder/<field>`) come in the patch's order, items only the
 * server has keep their relative order from the live list, and the two sequences are interleaved
 * using the live order as the tie-breaker: a server-only item goes before a patch item only when
 * both are in the live list and it came first there. Items are matched by an identity string (the
 * merge key value, or the value itself for lists of primitives).
 */
import type { JsonValue } from '../kube/types.ts'

type Identify = (item: JsonValue) => string | undefined
type Entry = { item: JsonValue; id: string | undefined }

function positions(ids: readonly (string | undefined)[]): Map<string, number> {
  const map = new Map<string, number>()
  ids.forEach((id, i) => {
    if (id !== undefined && !map.has(id)) map.set(id, i)
  })
  return map
}

function sortByPosition(entries: Entry[], order: Map<string, number>): Entry[] {
  const rank = (e: Entry) => (e.id === undefined ? Infinity : (order.get(e.id) ?? Infinity))
  return entries.toSorted((a, b) => rank(a) - rank(b))
}

/**
 * Orders `merged` as kube does: `patchOrder` is the identities the patch lists (its own list or
 * `$setElementOrder`), `liveOrder` the identities of the live list before the patch.
 */
export function normalizeListOrder(
  merged: readonly JsonValue[],
  patchOrder: readonly (string | undefined)[],
  liveOrder: readonly (string | undefined)[],
  identify: Identify
): JsonValue[] {
  const inPatch = positions(patchOrder)
  const inLive = positions(liveOrder)
  const fromPatch: Entry[] = []
  const serverOnly: Entry[] = []
  for (const item of merged) {
    const id = identify(item)
    const entry = { item, id }
    if (id !== undefined && inPatch.has(id)) fromPatch.push(entry)
    else serverOnly.push(entry)
  }
  return interleave(sortByPosition(serverOnly, inLive), sortByPosition(fromPatch, inPatch), inLive)
}

/** Merges two ordered sequences, taking the server-only item first only when the live order says so. */
function interleave(left: Entry[], right: Entry[], inLive: Map<string, number>): JsonValue[] {
  const out: JsonValue[] = []
  let i = 0
  let j = 0
  while (i < left.length || j < right.length) {
    const l = left[i]
    const r = right[j]
    if (l && (!r || liveBefore(l, r, inLive))) {
      out.push(l.item)
      i++
    } else if (r) {
      out.push(r.item)
      j++
    }
  }
  return out
}

function liveBefore(l: Entry, r: Entry, inLive: Map<string, number>): boolean {
  const li = l.id === undefined ? undefined : inLive.get(l.id)
  const ri = r.id === undefined ? undefined : inLive.get(r.id)
  return li !== undefined && ri !== undefined && li < ri
}
