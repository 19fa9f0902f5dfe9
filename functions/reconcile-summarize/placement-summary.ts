/**
 * An EdgePlacement's `status.summary` from where each selected object stands at each of its
 * destinations (lib/summarize/copy-condition.ts): destinations matched (one per SyncTarget),
 * reporting (heard from within the run's staleness threshold) and stale; per object, and in
 * total, how many destinations are in each state — every (object, destination) pair counts in
 * exactly one; the first MAX_SUMMARY_OBJECTS objects are listed (in group, resource, namespace, name order), all
 * are totalled. Broken pairs — failed first, then stale, each in object then destination order —
 * are counted, and the first MAX_BROKEN listed with the reason. Copies of the placement still
 * leaving destinations it no longer has, or objects it no longer selects (`departing`, counted per
 * object), are `removing` pairs beyond those: added to the object's row, or listed in a row of
 * their own after the selected objects (so an object deleted at the source shows while its copies
 * go), and to the totals; `objectCount` stays the selected objects. The same inputs give the same
 * summary (no times), so an unchanged world writes nothing. `rollouts` lists the Rollouts whose
 * stamps the copies carry (the first MAX_ROLLOUTS_LISTED by name), each with how many
 * destinations are at each revision (their lowest): it moves whenever an edge's revision does, so
 * the placement's event wakes the space's Rollouts (the relay), and the standings part reads it
 * back to know whether standings may be stored (reconcile-rollout-standings.ts). Pure.
 */
import {
  type CopyCounts,
  MAX_BROKEN,
  MAX_ROLLOUT_REVISIONS,
  MAX_ROLLOUTS_LISTED,
  MAX_SUMMARY_OBJECTS,
  type PlacementSummary,
} from '../../lib/apis/edge-summary.ts'
import { copyKeyOf } from '../../lib/placement/copy-key.ts'
import type { Destination } from '../../lib/placement/destinations.ts'
import type { SourceObject } from '../../lib/placement/types.ts'
import { entryKey } from '../../lib/store/projection-diff.ts'
import type { CopyKey } from '../../lib/store/projection-types.ts'
import type { CopyCondition } from '../../lib/summarize/copy-condition.ts'

export type SummaryInput = {
  objects: readonly SourceObject[]
  destinations: readonly Destination[]
  live(d: Destination): boolean
  condition(object: SourceObject, d: Destination): CopyCondition
  upsync?: PlacementSummary['upsync']
  /** Removing pairs beyond objects × destinations, per object (removals.ts departingCounts). */
  departing?: readonly { key: CopyKey; count: number }[]
  /** Per Rollout stamped on the copies, destinations per lowest revision (rollout-standings.ts). */
  rollouts?: ReadonlyMap<string, ReadonlyMap<number, number>>
}

/** Every state at zero. */
export const zeroCounts = (): CopyCounts => ({
  pending: 0,
  applied: 0,
  ready: 0,
  failed: 0,
  removing: 0,
  stale: 0,
})

type Broken = PlacementSummary['broken'][number]

const fieldsOf = ({ group, resource, namespace, name }: CopyKey) =>
  namespace ? { group, resource, namespace, name } : { group, resource, name }
const keyFields = (o: SourceObject) => fieldsOf(copyKeyOf(o))

type Row = PlacementSummary['objects'][number]

/** Adds the departing removing pairs to the rows and totals. */
function addDeparting(
  rows: Row[],
  totals: CopyCounts,
  departing: readonly { key: CopyKey; count: number }[]
): void {
  const byKey = new Map(
    rows.map((r) => [entryKey({ ...r, namespace: r.namespace ?? '' }), r] as const)
  )
  for (const { key, count } of departing) {
    totals.removing += count
    const row = byKey.get(entryKey(key))
    if (row) row.removing += count
    else if (rows.length < MAX_SUMMARY_OBJECTS)
      rows.push({ ...fieldsOf(key), ...zeroCounts(), removing: count })
  }
}

/** The first MAX_ROLLOUTS_LISTED Rollouts by name, each with its lowest revisions' counts. */
const listed = (rollouts: SummaryInput['rollouts'] = new Map()) =>
  [...rollouts.keys()]
    .sort()
    .slice(0, MAX_ROLLOUTS_LISTED)
    .map((name) => ({
      name,
      revisions: [...(rollouts.get(name) ?? new Map<number, number>())]
        .sort(([a], [b]) => a - b)
        .slice(0, MAX_ROLLOUT_REVISIONS)
        .map(([revision, destinations]) => ({ revision, destinations })),
    }))

export function placementSummary(input: SummaryInput): PlacementSummary {
  const live = input.destinations.filter((d) => input.live(d)).length
  const totals = zeroCounts()
  const objects: PlacementSummary['objects'] = []
  const failed: Broken[] = []
  const stale: Broken[] = []
  for (const object of input.objects) {
    const counts = zeroCounts()
    for (const d of input.destinations) {
      const c = input.condition(object, d)
      counts[c.state]++
      totals[c.state]++
      if (c.state !== 'failed' && c.state !== 'stale') continue
      const entry: Broken = {
        ...keyFields(object),
        cluster: d.cluster,
        location: d.locationName,
        syncTarget: d.syncTargetName,
        reason: c.reason ?? (c.state === 'failed' ? 'Failed' : 'StaleDestination'),
        ...(c.message ? { message: c.message.slice(0, 500) } : {}),
      }
      const list = c.state === 'failed' ? failed : stale
      if (list.length < MAX_BROKEN) list.push(entry)
    }
    if (objects.length < MAX_SUMMARY_OBJECTS) objects.push({ ...keyFields(object), ...counts })
  }
  addDeparting(objects, totals, input.departing ?? [])
  const summary: PlacementSummary = {
    destinations: input.destinations.length,
    reportingDestinations: live,
    staleDestinations: input.destinations.length - live,
    objectCount: input.objects.length,
    totals,
    objects,
    brokenCount: totals.failed + totals.stale,
    broken: [...failed, ...stale].slice(0, MAX_BROKEN),
  }
  if (input.upsync) summary.upsync = input.upsync
  const rollouts = listed(input.rollouts)
  if (rollouts.length > 0) summary.rollouts = rollouts
  return summary
}
