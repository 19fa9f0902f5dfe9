/**
 * The where step for one key (`<workload-space-id>/<edgeplacement-name>`): make the world match
 * "the EdgePlacement's SinglePlacementSlice lists exactly the (Location, SyncTarget) pairs its
 * locationSelectors reach, and its status counts the matched Locations". It re-reads the
 * EdgePlacement, every Location in every space and the SyncTargets of the matched Locations'
 * spaces, then creates or updates the slice (resourceVersion precondition, only when it differs)
 * and applies its status fields (only when they differ; server-side apply as `edgeplane-where`,
 * the one writer of specGeneration and matchingLocationCount). When the EdgePlacement is absent
 * or deleting, its slice is deleted with a uid precondition — but only a slice owned by an
 * EdgePlacement of that name, so a slice someone else made is left alone. A failed read throws;
 * nothing is deleted on doubt. Every object is decoded once by its lib/apis schema as it is read
 * (lib/apis/decode.ts): an invalid EdgePlacement is reported and its key left as it is (its slice
 * neither written nor deleted); an invalid Location or SyncTarget is reported and selects nothing;
 * an invalid slice (the step's own output) is reported and rewritten whole.
 */
import {
  type DecodeProblem,
  decodeEach,
  decodeObject,
  reportInvalid,
} from '../../lib/apis/decode.ts'
import type {
  EdgePlacementObject,
  LocationObject,
  SyncTargetObject,
} from '../../lib/apis/edge-objects.ts'
import {
  EdgePlacementSchema,
  LocationSchema,
  SinglePlacementSliceSchema,
  SyncTargetSchema,
} from '../../lib/apis/edge-v1alpha1.ts'
import { EDGE_PLACEMENTS, LOCATIONS, PLACEMENT_SLICES, SYNC_TARGETS } from '../../lib/apis/gvr.ts'
import { isNotFound } from '../../lib/errors.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import { CLUSTER_ANNOTATION, type KubeObject } from '../../lib/kube/types.ts'
import type { Logger } from '../../lib/log.ts'
import {
  destinationsFor,
  locationSelectorsOf,
  matchingLocations,
} from '../../lib/placement/destinations.ts'
import { applyPlacementStatus } from '../../lib/reconcile/placement-status.ts'
import { type ReconcileResult, TerminalError } from '../../lib/reconcile/types.ts'
import { parseWhereKey } from './names.ts'
import { desiredSlice, ownedByPlacement, sliceUpdate } from './slice.ts'

export const WHERE_STEP = 'where'

/** What the where step needs: the hub and where to report invalid stored objects. */
export type WhereDeps = { client: HubClient; log: Logger }

async function removeSlice(
  client: HubClient,
  spaceId: string,
  name: string,
  slice: KubeObject | undefined
): Promise<ReconcileResult> {
  if (!slice || slice.metadata.deletionTimestamp || !ownedByPlacement(slice, name))
    return { outcome: 'absent' }
  try {
    await client.delete(spaceId, PLACEMENT_SLICES, name, { uid: slice.metadata.uid ?? '' })
  } catch (e) {
    if (isNotFound(e)) return { outcome: 'absent' }
    throw e
  }
  return { outcome: 'deleted' }
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

/**
 * Applies status.specGeneration and status.matchingLocationCount, the where step's own fields
 * (lib/reconcile/placement-status.ts); false when the placement already says so.
 */
async function writeStatus(
  client: HubClient,
  spaceId: string,
  ep: EdgePlacementObject,
  matchingLocationCount: number
): Promise<boolean> {
  const specGeneration = ep.metadata.generation ?? 0
  if (
    ep.status?.specGeneration === specGeneration &&
    ep.status?.matchingLocationCount === matchingLocationCount
  )
    return false
  return applyPlacementStatus(client, {
    spaceId,
    ep,
    writer: 'where',
    status: { specGeneration, matchingLocationCount },
  })
}

export async function reconcileWhere(deps: WhereDeps, key: string): Promise<ReconcileResult> {
  const { client } = deps
  const parsed = parseWhereKey(key)
  if (!parsed) throw new TerminalError(`"${key}" is not a where key (<space-id>/<name>)`)
  const { spaceId, name } = parsed
  const stored = await client.get(spaceId, EDGE_PLACEMENTS, name)
  const slice = await client.get(spaceId, PLACEMENT_SLICES, name)
  if (!stored || stored.metadata.deletionTimestamp) return removeSlice(client, spaceId, name, slice)
  const onInvalid = (p: DecodeProblem) => reportInvalid(deps.log, WHERE_STEP, p)
  const decoded = decodeObject(EdgePlacementSchema, stored)
  if (!decoded.ok) {
    onInvalid(decoded.problem)
    return { outcome: 'invalid EdgePlacement: skipped' }
  }
  const ep = decoded.value
  const locations = decodeEach(LocationSchema, await client.list('*', LOCATIONS), onInvalid)
  const selected = matchingLocations(locationSelectorsOf(ep), locations)
  const destinations = destinationsFor(selected, await syncTargetsOf(client, selected, onInvalid))
  const done: string[] = []
  if (!slice) {
    await client.create(spaceId, PLACEMENT_SLICES, desiredSlice(ep, destinations))
    done.push('created')
  } else if (slice.metadata.deletionTimestamp) {
    return { outcome: 'waiting for termination', requeueAfterMs: 2000 }
  } else {
    const current = decodeObject(SinglePlacementSliceSchema, slice)
    if (!current.ok) onInvalid(current.problem)
    const next = sliceUpdate({
      slice,
      current: current.ok ? (current.value.destinations ?? []) : undefined,
      ep,
      destinations,
    })
    if (next) {
      await client.update(spaceId, PLACEMENT_SLICES, next)
      done.push('updated')
    }
  }
  if (await writeStatus(client, spaceId, ep, selected.length)) done.push('status updated')
  return { outcome: done.length > 0 ? done.join(', ') : 'unchanged' }
}
