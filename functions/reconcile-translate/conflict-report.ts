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
 */
import type { Builtins } from '../../lib/apis/builtins.ts'
import { destinationId } from '../../lib/placement/slice-groups.ts'
import type { PlacementRef } from '../../lib/placement/snapshot.ts'
import { listDestinations } from './customization-report.ts'
import {
  type DestinationSession,
  destinationKey,
  destinationOverlaps,
} from './destination-inputs.ts'
import { destinationsOf, label } from './destinations.ts'

export type ConflictReport = {
  reason: 'MergeConflict' | 'APIVersionConflict'
  /** `<group>/<resource>/<namespace>/<name>` of the object. */
  key: string
  /**
   * The other workload spaces involved, sorted. MergeConflict: those sending the object too.
   * APIVersionConflict: when this placement's object is not sent, the spaces whose objects of the
   * group are (the reason it is not); else the spaces whose same-named object is not sent.
   */
  others: string[]
  /** MergeConflict: the fields that differ; APIVersionConflict: the group's field. Sorted. */
  fields: string[]
  /** APIVersionConflict: whether this placement's object is the one not sent (somewhere). */
  leftOut: boolean
  /** The destinations where it happens, as labels, sorted. */
  destinations: string[]
}

const none = Promise.resolve([])

export async function placementConflicts(
  builtins: Builtins,
  session: DestinationSession,
  ref: PlacementRef
): Promise<ConflictReport[]> {
  const name = ref.placement.metadata.name ?? ''
  const grouped = new Map<string, ConflictReport>()
  const meeting = await session.snapshot.meetingDestinations()
  for (const d of destinationsOf(ref.slice)) {
    // Where one space's placements alone name the destination nothing can conflict: only what a
    // run of the batch found there counts, and nothing is computed for the others.
    const at = destinationId(d.location.cluster, d.syncTargetUid)
    const found = meeting.has(at)
      ? await destinationOverlaps(builtins, session, d.location.cluster, d.syncTargetUid)
      : await (session.overlaps.get(destinationKey(d.location.cluster, d.syncTargetUid)) ?? none)
    for (const c of found) {
      const mine = c.sources.find((s) => s.spaceId === ref.spaceId && s.placements.includes(name))
      if (!mine) continue
      const id = `${c.reason}\u0000${c.key}`
      const at = grouped.get(id) ?? {
        reason: c.reason,
        key: c.key,
        others: [],
        fields: [],
        leftOut: false,
        destinations: [],
      }
      const left = c.left ?? []
      const named =
        c.reason === 'MergeConflict'
          ? c.sources.map((s) => s.spaceId)
          : left.includes(ref.spaceId)
            ? (c.kept ?? [])
            : left
      const others = named.filter((s) => s !== ref.spaceId)
      at.others = [...new Set([...at.others, ...others])].sort()
      at.fields = [...new Set([...at.fields, ...c.fields.map((f) => f.field)])].sort()
      at.leftOut ||= left.includes(ref.spaceId)
      at.destinations = [...at.destinations, label(d)].sort()
      grouped.set(id, at)
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
  const others = `space(s) ${r.others.join(', ')}`
  const object = describeKey(r.key)
  if (r.reason === 'MergeConflict')
    return `${object} is also sent from ${others} to ${where}; merged, they disagree on ${r.fields.join(', ')}, and the most recently updated object's values are used`
  if (r.leftOut)
    return `${object} is not sent to ${where}: this space's ${r.fields.join(', ')} has no version in common with ${others}`
  return `${object} from ${others} is not sent to ${where}: their ${r.fields.join(', ')} has no version in common with this space's`
}
