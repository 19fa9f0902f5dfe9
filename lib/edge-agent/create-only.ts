/**
 * Create-only objects (issue 5): a desired body annotated `edge.kcp.io/downsync-overwrite:
 * "false"` is created at the edge when absent and from then on left to the edge — no update, no
 * drift revert, and no delete when it leaves the desired state (prune.ts forgets it). Any other
 * value, or none, is the normal mode. The mode is read from the desired body on every poll, so a
 * switch takes effect at once: to create-only stops updates (the switch itself is not applied
 * either), back to normal re-applies the body (the applied-body hash kept from the creation
 * differs, as the annotation changed). An object the agent made that is deleted at the edge is
 * created again from the current desired body: "created once" means never overwritten, not
 * never repaired. The record keeps the `createOnly` flag for prune, which no longer has the body.
 * Status is still reported; each new center generation is acknowledged as observed at the
 * object's edge generation, since the edge has taken all it ever will from it (the summary shows
 * the copy as current, not as forever behind). An object of the agent's (its uid recorded, or
 * carrying its marker and field manager — a create-only object forgotten and desired again, or
 * a create the record did not get to hold before a crash) is held without any write.
 */
import type { KubeObject } from '../kube/types.ts'
import { type OwnedRecord, withGeneration } from './ownership.ts'
import { hashOf, isRecord, refOf } from './refs.ts'
import type { Planned } from './selection.ts'

export const DOWNSYNC_OVERWRITE_ANNOTATION = 'edge.kcp.io/downsync-overwrite'

export function isCreateOnly(body: Record<string, unknown>): boolean {
  const meta = body.metadata
  if (!isRecord(meta) || !isRecord(meta.annotations)) return false
  return meta.annotations[DOWNSYNC_OVERWRITE_ANNOTATION] === 'false'
}

/**
 * The record to keep for a live object of a create-only entry, or undefined when the object is
 * not the agent's (the caller's foreign-object rules apply). `marked`: the live object carries
 * the agent's marker and field manager. The same record object is returned when nothing changed.
 */
export function heldRecord(
  p: Planned,
  live: KubeObject,
  rec: OwnedRecord | undefined,
  marked: boolean
): OwnedRecord | undefined {
  const uid = live.metadata.uid
  if (rec?.uid !== undefined ? rec.uid !== uid : !marked) return undefined
  const gens = rec?.generations ?? []
  const edge = gens[gens.length - 1]?.edge ?? live.metadata.generation ?? 0
  const next: OwnedRecord = {
    ...(rec ?? { hash: '', view: '' }),
    ...refOf(p.entry),
    uid: uid ?? '',
    createOnly: true,
    generations: withGeneration(gens, edge, p.entry.generation),
  }
  delete next.pendingSince
  return rec && hashOf(rec) === hashOf(next) ? rec : next
}
