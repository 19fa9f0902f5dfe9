/**
 * The where step for one key (`<workload-space-id>/<edgeplacement-name>`): make the world match
 * "the EdgePlacement's SinglePlacementSlices list exactly the (Location, SyncTarget) pairs its
 * locationSelectors reach, and its status counts the matched Locations". It re-reads the
 * EdgePlacement, its slices (slices.ts: the one named after it, and parts once its destinations
 * outgrow one object, slice-plan.ts), every Location in every space and the SyncTargets of the
 * matched Locations' spaces, then creates, updates or deletes slices (resourceVersion and uid
 * preconditions, only where they differ) and applies its status fields (only when they differ;
 * server-side apply as `edgeplane-where`, the one writer of specGeneration and
 * matchingLocationCount). When the EdgePlacement is absent or deleting, its slices are deleted
 * with uid preconditions — but only slices owned by an EdgePlacement of that name, so a slice
 * someone else made is left alone. A failed read throws; nothing is deleted on doubt. Every object
 * is decoded once by its lib/apis schema as it is read (lib/apis/decode.ts): an invalid
 * EdgePlacement is reported and its key left as it is (its slices neither written nor deleted); an
 * invalid Location or SyncTarget is reported and selects nothing; an invalid slice (the step's own
 * output) is reported and refilled.
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
  SyncTargetSchema,
} from '../../lib/apis/edge-v1alpha1.ts'
import { EDGE_PLACEMENTS, LOCATIONS, SYNC_TARGETS } from '../../lib/apis/gvr.ts'
import { isNotFound } from '../../lib/errors.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import { CLUSTER_ANNOTATION } from '../../lib/kube/types.ts'
import type { Logger } from '../../lib/log.ts'
import {
  destinationsFor,
  locationSelectorsOf,
  matchingLocations,
} from '../../lib/placement/destinations.ts'
import { applyPlacementStatus } from '../../lib/reconcile/placement-status.ts'
import { type ReconcileResult, TerminalError } from '../../lib/reconcile/types.ts'
import { parseWhereKey } from './names.ts'
import { readPlacementSlices, removeSlices, writeSlices } from './slices.ts'

export const WHERE_STEP = 'where'

/**
 * What the where step needs: the hub, where to report invalid stored objects and (tests) how many
 * bytes of destinations one slice holds before a part is started.
 */
export type WhereDeps = { client: HubClient; log: Logger; sliceBudgetBytes?: number }

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
  const slices = await readPlacementSlices(client, spaceId, name)
  if (!stored || stored.metadata.deletionTimestamp) {
    const n = await removeSlices(client, spaceId, name, slices)
    return { outcome: n === 0 ? 'absent' : n === 1 ? 'deleted' : `deleted ${n} slices` }
  }
  const onInvalid = (p: DecodeProblem) => reportInvalid(deps.log, WHERE_STEP, p)
  const decoded = decodeObject(EdgePlacementSchema, stored)
  if (!decoded.ok) {
    onInvalid(decoded.problem)
    return { outcome: 'invalid EdgePlacement: skipped' }
  }
  const ep = decoded.value
  if (slices.held.some((s) => s.metadata.deletionTimestamp))
    return { outcome: 'waiting for termination', requeueAfterMs: 2000 }
  const locations = decodeEach(LocationSchema, await client.list('*', LOCATIONS), onInvalid)
  const selected = matchingLocations(locationSelectorsOf(ep), locations)
  const destinations = destinationsFor(selected, await syncTargetsOf(client, selected, onInvalid))
  const write = { client, onInvalid, budgetBytes: deps.sliceBudgetBytes }
  const done = await writeSlices(write, { spaceId, ep, slices, destinations })
  if (await writeStatus(client, spaceId, ep, selected.length)) done.push('status updated')
  return { outcome: done.length > 0 ? done.join(', ') : 'unchanged' }
}
