/**
 * An EdgePlacement's slices, read and written as one collection (slice-plan.ts spreads the
 * destinations over them). Its slices are those of its space that belong to it
 * (lib/placement/slice-owner.ts): the one named after it (unless another placement's part took
 * that name) and its parts. Writes go slice by slice with preconditions: creates and updates
 * first, so a destination never goes missing between two writes (at worst, after a failure, one
 * is in two slices for a while, which readers take as one), then the deletion of parts left
 * empty, each with its uid. A slice that vanished meanwhile is not an error; a Conflict throws,
 * and the key runs again on fresh reads.
 */

import type { DecodeProblem } from '../../lib/apis/decode.ts'
import { decodeObject } from '../../lib/apis/decode.ts'
import type { EdgePlacementObject } from '../../lib/apis/edge-objects.ts'
import { SinglePlacementSliceSchema } from '../../lib/apis/edge-v1alpha1.ts'
import { PLACEMENT_SLICES } from '../../lib/apis/gvr.ts'
import { isNotFound } from '../../lib/errors.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { canonicalDestinations, type Destination } from '../../lib/placement/destinations.ts'
import { placementOfSlice } from '../../lib/placement/slice-owner.ts'
import { desiredSlice, ownedByPlacement, sliceUpdate } from './slice.ts'
import { type HeldSlice, planSlices } from './slice-plan.ts'

export type PlacementSlices = {
  /** The placement's slices: the one named after it first, then parts by age and name. */
  held: KubeObject[]
  /** Whether the slice named after the placement is its own (else absent or another's part). */
  primary: KubeObject | undefined
  /** Whether the placement's name is free for a new slice. */
  nameFree: boolean
}

const byAge = (a: KubeObject, b: KubeObject) => {
  const ta = a.metadata.creationTimestamp ?? ''
  const tb = b.metadata.creationTimestamp ?? ''
  if (ta !== tb) return ta < tb ? -1 : 1
  return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1
}

/** The slices of the space that belong to the placement `name`; a vanished space has none. */
export async function readPlacementSlices(
  client: HubClient,
  spaceId: string,
  name: string
): Promise<PlacementSlices> {
  let all: KubeObject[]
  try {
    all = await client.list(spaceId, PLACEMENT_SLICES)
  } catch (e) {
    if (!isNotFound(e)) throw e
    all = []
  }
  const named = all.find((s) => s.metadata.name === name)
  const primary = named && placementOfSlice(named) === name ? named : undefined
  const parts = all.filter((s) => s !== named && placementOfSlice(s) === name).sort(byAge)
  return { held: primary ? [primary, ...parts] : parts, primary, nameFree: !named }
}

async function deleteSlice(
  client: HubClient,
  spaceId: string,
  slice: KubeObject
): Promise<boolean> {
  try {
    await client.delete(spaceId, PLACEMENT_SLICES, slice.metadata.name ?? '', {
      uid: slice.metadata.uid ?? '',
    })
    return true
  } catch (e) {
    if (isNotFound(e)) return false
    throw e
  }
}

/** Deletes the slices an EdgePlacement of this name owns (of any uid); how many went. */
export async function removeSlices(
  client: HubClient,
  spaceId: string,
  name: string,
  slices: PlacementSlices
): Promise<number> {
  const owned = slices.held.filter(
    (s) => !s.metadata.deletionTimestamp && ownedByPlacement(s, name)
  )
  let n = 0
  for (const s of owned) if (await deleteSlice(client, spaceId, s)) n++
  return n
}

const counted = (verb: string, n: number) =>
  n === 0 ? [] : [n === 1 ? verb : `${verb} ${n} slices`]

/**
 * Writes what the plan says the placement's slices lack; returns what it did (`created`,
 * `updated 2 slices`, ...), empty when they already matched.
 */
export async function writeSlices(
  deps: {
    client: HubClient
    onInvalid: (p: DecodeProblem) => void
    budgetBytes?: number | undefined
  },
  want: {
    spaceId: string
    ep: EdgePlacementObject
    slices: PlacementSlices
    destinations: Destination[]
  }
): Promise<string[]> {
  const { client } = deps
  const { spaceId, ep, slices, destinations } = want
  const held: HeldSlice<KubeObject>[] = slices.held.map((slice) => {
    const decoded = decodeObject(SinglePlacementSliceSchema, slice)
    if (!decoded.ok) deps.onInvalid(decoded.problem)
    const current = decoded.ok ? canonicalDestinations(decoded.value.destinations ?? []) : undefined
    return { slice, destinations: current }
  })
  const createPrimary = !slices.primary && slices.nameFree
  const plan = planSlices({
    held,
    desired: destinations,
    isPrimary: (s) => s === slices.primary,
    createPrimary,
    budgetBytes: deps.budgetBytes,
  })
  let created = 0
  for (const [i, dests] of plan.create.entries()) {
    await client.create(
      spaceId,
      PLACEMENT_SLICES,
      desiredSlice(ep, dests, createPrimary && i === 0)
    )
    created++
  }
  let updated = 0
  for (const k of plan.keep) {
    const current = held.find((h) => h.slice === k.slice)?.destinations
    const next = sliceUpdate({ slice: k.slice, current, ep, destinations: k.destinations })
    if (!next) continue
    await client.update(spaceId, PLACEMENT_SLICES, next)
    updated++
  }
  let deleted = 0
  for (const s of plan.remove) if (await deleteSlice(client, spaceId, s)) deleted++
  return [
    ...counted('created', created),
    ...counted('updated', updated),
    ...counted('deleted', deleted),
  ]
}
