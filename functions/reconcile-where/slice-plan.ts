/**
 * How an EdgePlacement's destinations are spread over its slices. One object holds about 1 MiB at
 * most, about 7,600 destinations, so a placement reaching more SyncTargets keeps its destinations
 * in several slices: the one named after it, then parts with generated names, each filled up to
 * `budgetBytes` of destinations. The assignment is stable, so a change touches the fewest slices
 * (and wakes only the mailboxes of those): a destination still wanted stays in the slice that has
 * it (the first such slice, when a race wrote it twice); a new one goes to the first slice with
 * room, else to a new part; a part left empty is deleted. The slice named after the placement is
 * kept even when empty, as a placement selecting nothing has always had one. A slice whose stored
 * destinations did not decode keeps none of them and is refilled.
 */
import type { Destination } from '../../lib/placement/destinations.ts'

/** A slice the placement has, with its destinations as decoded (undefined: they did not). */
export type HeldSlice<S> = { slice: S; destinations: readonly Destination[] | undefined }

export type SlicePlan<S> = {
  /** Every held slice in order, with the destinations it should hold (canonical order). */
  keep: { slice: S; destinations: Destination[] }[]
  /**
   * New slices to create, each with its destinations; the first is the one named after the
   * placement when `createPrimary` was asked.
   */
  create: Destination[][]
  /** Held parts left with nothing to hold. */
  remove: S[]
}

/** About 400 KB of destinations per slice: well under the 1 MiB object limit, with metadata. */
export const SLICE_BUDGET_BYTES = 400_000

const keyOf = (d: Destination) =>
  `${d.cluster}\u0000${d.locationName}\u0000${d.syncTargetName}\u0000${d.syncTargetUID}`

/** What a destination adds to a slice's JSON. */
export const destinationBytes = (d: Destination) => JSON.stringify(d).length + 1

function canonical(list: Destination[], order: Map<string, number>): Destination[] {
  return list.sort((a, b) => (order.get(keyOf(a)) ?? 0) - (order.get(keyOf(b)) ?? 0))
}

export type PlanInput<S> = {
  /** The slices the placement has, the one named after it first (if it has it). */
  held: readonly HeldSlice<S>[]
  /** The destinations it should have, in canonical order. */
  desired: readonly Destination[]
  /** Which held slice is the one named after the placement (never removed). */
  isPrimary: (s: S) => boolean
  /** Whether to create the slice named after the placement (it has none, and the name is free). */
  createPrimary: boolean
  /** Bytes of destinations per slice; SLICE_BUDGET_BYTES when not given. */
  budgetBytes?: number | undefined
}

/** Spreads the desired destinations over the held slices and new ones (see the header). */
export function planSlices<S>(input: PlanInput<S>): SlicePlan<S> {
  const { held, desired, isPrimary } = input
  const budgetBytes = input.budgetBytes ?? SLICE_BUDGET_BYTES
  const order = new Map(desired.map((d, i) => [keyOf(d), i]))
  const placed = new Set<string>()
  const slots = held.map(({ slice, destinations }) => {
    const kept = (destinations ?? []).filter((d) => {
      const k = keyOf(d)
      if (!order.has(k) || placed.has(k)) return false
      placed.add(k)
      return true
    })
    const bytes = kept.reduce((n, d) => n + destinationBytes(d), 0)
    return { slice, destinations: kept, bytes }
  })
  const create: { destinations: Destination[]; bytes: number }[] = []
  let at = 0
  for (const d of desired) {
    if (placed.has(keyOf(d))) continue
    placed.add(keyOf(d))
    const size = destinationBytes(d)
    while (at < slots.length && (slots[at]?.bytes ?? 0) + size > budgetBytes) at++
    const open = slots[at]
    if (open) {
      open.destinations.push(d)
      open.bytes += size
      continue
    }
    const last = create[create.length - 1]
    if (last && (last.bytes === 0 || last.bytes + size <= budgetBytes)) {
      last.destinations.push(d)
      last.bytes += size
    } else create.push({ destinations: [d], bytes: size })
  }
  const keep = slots
    .filter((s) => s.destinations.length > 0 || isPrimary(s.slice))
    .map((s) => ({ slice: s.slice, destinations: canonical(s.destinations, order) }))
  // A placement always has a slice: the one named after it when it can, else a part.
  if (create.length === 0 && (input.createPrimary || keep.length === 0))
    create.push({ destinations: [], bytes: 0 })
  const remove = slots
    .filter((s) => s.destinations.length === 0 && !isPrimary(s.slice))
    .map((s) => s.slice)
  return { keep, create: create.map((c) => canonical(c.destinations, order)), remove }
}
