/**
 * The overlap conflicts of one EdgePlacement over ALL the destinations its slice names, as its
 * reports say them (report-placements.ts), so that every mailbox's reconcile computes the same
 * condition and the same Event messages. Per destination the batch's conflicts
 * (destination-inputs.ts) are kept when this placement is one of the sources; they are grouped by
 * (reason, object): the other workload spaces involved, the fields they disagree on and the
 * destinations are united, so a placement has one report — and one Event — per object and reason.
 * Overlaps are computed only at destinations where the slices of two workload spaces meet (the
 * snapshot's `meetingDestinations`); a placement of ten thousand destinations in one space costs a
 * set lookup per destination, not a look at the placements naming each.
 * A space of another trust scope (by the grants, lib/tenancy/policy.ts) is never named: a report
 * says only that another trust scope is involved (`foreign`), never its space, its fields or its
 * values (issue 35). A `TrustScopeConflict` (trust-scopes.ts) is told to every side the same way,
 * whichever side the destination's copy stays with, so that every mailbox computes the same
 * message; which side a destination holds is in that mailbox's log line.
 */
import type { Builtins } from '../../lib/apis/builtins.ts'
import { destinationId } from '../../lib/placement/slice-groups.ts'
import type { PlacementRef } from '../../lib/placement/snapshot.ts'
import { sameTrustScope } from '../../lib/tenancy/policy.ts'
import { listDestinations } from './customization-report.ts'
import {
  type DestinationSession,
  destinationKey,
  destinationOverlaps,
} from './destination-inputs.ts'
import { destinationsOf, label } from './destinations.ts'
import type { Conflict, ConflictReason } from './overlap.ts'

export type ConflictReport = {
  reason: ConflictReason
  /** `<group>/<resource>/<namespace>/<name>` of the object. */
  key: string
  /**
   * The other workload spaces involved, sorted. MergeConflict: those sending the object too.
   * APIVersionConflict: when this placement's object is not sent, the spaces whose objects of the
   * group are (the reason it is not); else the spaces whose same-named object is not sent.
   * TrustScopeConflict: none. Only spaces of this space's trust scope are ever named.
   */
  others: string[]
  /** Whether a space of another trust scope is involved (never named). */
  foreign: boolean
  /** MergeConflict: the fields that differ; APIVersionConflict: the group's field. Sorted. */
  fields: string[]
  /** APIVersionConflict: whether this placement's object is the one not sent (somewhere). */
  leftOut: boolean
  /** The destinations where it happens, as labels, sorted. */
  destinations: string[]
}

const none = Promise.resolve([])

/** The other spaces a conflict names to `spaceId` (before trust scopes are applied). */
function othersOf(c: Conflict, spaceId: string): string[] {
  const left = c.left ?? []
  if (c.reason === 'TrustScopeConflict') return []
  const named =
    c.reason === 'MergeConflict'
      ? c.sources.map((s) => s.spaceId)
      : left.includes(spaceId)
        ? (c.kept ?? [])
        : left
  return named.filter((s) => s !== spaceId)
}

/** Adds one destination's conflict to its report; `trusts` tells who may be named. */
async function fold(
  at: ConflictReport,
  c: Conflict,
  {
    spaceId,
    destination,
    trusts,
  }: {
    spaceId: string
    destination: string
    trusts: (spaceId: string) => Promise<boolean>
  }
): Promise<void> {
  const others: string[] = []
  for (const s of othersOf(c, spaceId))
    if (await trusts(s)) others.push(s)
    else at.foreign = true
  const scoped = c.reason === 'TrustScopeConflict'
  at.foreign ||= scoped
  at.others = [...new Set([...at.others, ...others])].sort()
  const fields = scoped ? [] : c.fields.map((f) => f.field)
  at.fields = [...new Set([...at.fields, ...fields])].sort()
  at.leftOut ||= c.reason === 'APIVersionConflict' && (c.left ?? []).includes(spaceId)
  at.destinations = [...at.destinations, destination].sort()
}

export async function placementConflicts(
  builtins: Builtins,
  session: DestinationSession,
  ref: PlacementRef
): Promise<ConflictReport[]> {
  const name = ref.placement.metadata.name ?? ''
  const grouped = new Map<string, ConflictReport>()
  const mine = await session.snapshot.grantOf(ref.spaceId)
  const trusted = new Map<string, boolean>()
  const trusts = async (spaceId: string) => {
    let t = trusted.get(spaceId)
    if (t === undefined) {
      const theirs = await session.snapshot.grantOf(spaceId)
      t = !!mine && !!theirs && sameTrustScope(mine, theirs)
      trusted.set(spaceId, t)
    }
    return t
  }
  const meeting = await session.snapshot.meetingDestinations()
  for (const d of destinationsOf(ref.slice)) {
    // Where one space's placements alone name the destination nothing can conflict: only what a
    // run of the batch found there counts, and nothing is computed for the others.
    const at = destinationId(d.location.cluster, d.syncTargetUid)
    const found = meeting.has(at)
      ? await destinationOverlaps(builtins, session, d.location.cluster, d.syncTargetUid)
      : await (session.overlaps.get(destinationKey(d.location.cluster, d.syncTargetUid)) ?? none)
    for (const c of found) {
      const ours = c.sources.find((s) => s.spaceId === ref.spaceId && s.placements.includes(name))
      if (!ours) continue
      const id = `${c.reason}\u0000${c.key}`
      const report = grouped.get(id) ?? {
        ...{ reason: c.reason, key: c.key, others: [], foreign: false, fields: [] },
        ...{ leftOut: false, destinations: [] },
      }
      await fold(report, c, { spaceId: ref.spaceId, destination: label(d), trusts })
      grouped.set(id, report)
    }
  }
  return [...grouped.values()]
}

/** `configmaps common/cm1`, `widgets.example.io w1` */
export function describeKey(key: string): string {
  const [group = '', resource = '', namespace = '', name = ''] = key.split('/')
  return `${resource}${group ? `.${group}` : ''} ${namespace ? `${namespace}/` : ''}${name}`
}

/** How a conflict reads in the condition and the Event. */
export function conflictMessage(r: ConflictReport): string {
  const n = r.destinations.length
  const where = `${n} destination${n === 1 ? '' : 's'}: ${listDestinations(r.destinations)}`
  const named = r.others.length > 0 ? `space(s) ${r.others.join(', ')}` : ''
  const foreign = r.foreign ? 'another trust scope' : ''
  const others = [named, foreign].filter((x) => x).join(' and ')
  const object = describeKey(r.key)
  if (r.reason === 'TrustScopeConflict')
    return `${object} is also placed from another trust scope at ${where}; objects of different trust scopes are never merged: a destination already holding one keeps the one it holds, and one holding none gets neither while both are placed there`
  if (r.reason === 'MergeConflict')
    return `${object} is also sent from ${others} to ${where}; merged, they disagree on ${r.fields.join(', ')}, and the most recently updated object's values are used`
  if (r.leftOut)
    return `${object} is not sent to ${where}: this space's ${r.fields.join(', ')} has no version in common with ${others}`
  return `${object} from ${others} is not sent to ${where}: their ${r.fields.join(', ')} has no version in common with this space's`
}
