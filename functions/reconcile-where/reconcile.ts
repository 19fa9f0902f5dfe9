/**
 * The where step for one key (`<workload-space-id>/<edgeplacement-name>`): make the world match
 * "the EdgePlacement's SinglePlacementSlices list exactly the (Location, SyncTarget) pairs its
 * locationSelectors reach, and its status counts the matched Locations". It re-reads the
 * EdgePlacement, its slices (slices.ts: the one named after it, and parts once its destinations
 * outgrow one object, slice-plan.ts), every Location in every space, the SyncTargets of the
 * matched Locations' spaces and, when there are destinations, the mailbox Workspaces of root:espw
 * (lib/placement/where-reads.ts), then creates, updates or deletes slices (resourceVersion and uid
 * preconditions, only where they differ) and applies its status fields (only when they differ;
 * server-side apply as `edgeplane-where`, the one writer of specGeneration,
 * matchingLocationCount, unselectedLocationCount and unselectedLocations: the Locations it does
 * not select with why, lib/placement/location-reasons.ts). When the EdgePlacement is absent or
 * deleting, its slices are deleted with uid preconditions — but only slices owned by an
 * EdgePlacement of that name, so a slice someone else made is left alone. A failed read throws; nothing is deleted on doubt. Every object
 * is decoded once by its lib/apis schema as it is read (lib/apis/decode.ts): an invalid
 * EdgePlacement is reported and its key left as it is (its slices neither written nor deleted); an
 * invalid Location or SyncTarget is reported and selects nothing; an invalid slice (the step's own
 * output) is reported and refilled.
 */
import { type DecodeProblem, decodeObject, reportInvalid } from '../../lib/apis/decode.ts'
import type { EdgePlacementObject } from '../../lib/apis/edge-objects.ts'
import { EdgePlacementSchema } from '../../lib/apis/edge-v1alpha1.ts'
import { EDGE_PLACEMENTS } from '../../lib/apis/gvr.ts'
import type { UnselectedLocation } from '../../lib/apis/placement-preview.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import type { Logger } from '../../lib/log.ts'
import { resolveWhere, type WhereResolution } from '../../lib/placement/where-reads.ts'
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

/** The where step's own status fields (lib/reconcile/placement-status.ts). */
type WhereStatus = {
  specGeneration: number
  matchingLocationCount: number
  unselectedLocationCount: number
  unselectedLocations?: UnselectedLocation[]
}

function sameUnselected(
  a: readonly UnselectedLocation[] | undefined,
  b: readonly UnselectedLocation[] | undefined
): boolean {
  const x = a ?? []
  const y = b ?? []
  return (
    x.length === y.length &&
    x.every((u, i) => {
      const v = y[i]
      return (
        v !== undefined &&
        u.cluster === v.cluster &&
        u.name === v.name &&
        u.reason === v.reason &&
        u.message === v.message
      )
    })
  )
}

/**
 * Applies the where step's own status fields: specGeneration, matchingLocationCount and the
 * unselected Locations (their list left out when empty, which removes it); false when the
 * placement already says so.
 */
async function writeStatus(
  client: HubClient,
  spaceId: string,
  ep: EdgePlacementObject,
  where: WhereResolution
): Promise<boolean> {
  const { count, items } = where.unselected
  const status: WhereStatus = {
    specGeneration: ep.metadata.generation ?? 0,
    matchingLocationCount: where.matched.length,
    unselectedLocationCount: count,
    ...(items.length > 0 ? { unselectedLocations: items } : {}),
  }
  const now = ep.status
  if (
    now?.specGeneration === status.specGeneration &&
    now?.matchingLocationCount === status.matchingLocationCount &&
    now?.unselectedLocationCount === status.unselectedLocationCount &&
    sameUnselected(now?.unselectedLocations, status.unselectedLocations)
  )
    return false
  return applyPlacementStatus(client, { spaceId, ep, writer: 'where', status })
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
  const where = await resolveWhere(client, spaceId, ep, onInvalid)
  const write = { client, onInvalid, budgetBytes: deps.sliceBudgetBytes }
  const { destinations } = where
  const done = await writeSlices(write, { spaceId, ep, slices, destinations })
  if (await writeStatus(client, spaceId, ep, where)) done.push('status updated')
  return { outcome: done.length > 0 ? done.join(', ') : 'unchanged' }
}
