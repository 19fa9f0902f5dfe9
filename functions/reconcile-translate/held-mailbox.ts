/**
 * Whether a mailbox must be left as it is this round because a placement that may contribute to
 * it cannot be read: a stored EdgePlacement (or the slice of a valid one) that does not decode is
 * an unknown, not an absence, so its copies are neither tombstoned nor changed. The whole mailbox
 * is held rather than only that placement's entries: its contribution is not only its entries
 * (a copy it shares with other placements is merged from it, the SyncerConfig lists its
 * namespaces, resources and upsync), so carrying its entries over would still change what the edge
 * gets. A mailbox is held when
 * - an invalid placement's slice (where's output, valid) names this destination; or
 * - a live copy in the manifest records, among its sources, a placement translate does not see here
 *   whose content is unknown (`Snapshot.unknownPlacement`: the placement or its slice does not
 *   decode; the slice's destinations are then unknown, the manifest says where it delivered); or
 * - a live copy that can leave records no sources (written before they were recorded) while some
 *   stored slice does not decode (who delivered that copy cannot be told).
 * It is decided before anything is computed or remembered for the mailbox (the version memory
 * stays a faithful witness of the held manifest). Mailboxes no unknown placement reaches are
 * translated as usual; once the placement decodes again (or is deleted) the next round converges.
 * No I/O of its own: the snapshot's memoized reads, none in the steady state (every source of a
 * live copy is among the placements translate sees).
 */
import type { DecodeProblem } from '../../lib/apis/decode.ts'
import type { Snapshot } from '../../lib/placement/snapshot.ts'
import type { Manifest } from '../../lib/store/projection-types.ts'
import type { PlacementSelection } from './desired.ts'

/** Copies that are never removed by a translation (Namespaces stay, the SyncerConfig is live). */
const neverLeaves = (e: { group: string; resource: string }) =>
  (e.group === '' && e.resource === 'namespaces') ||
  (e.group === 'edge.kcp.io' && e.resource === 'syncerconfigs')

/** The unknown placements (their decode problems, one per key) that hold this mailbox. */
export async function holdingPlacements(
  snapshot: Snapshot,
  dest: { inventorySpaceId: string; syncTargetUid: string },
  at: {
    chosen: readonly PlacementSelection[]
    current: Manifest | undefined
  }
): Promise<DecodeProblem[]> {
  const found = new Map<string, DecodeProblem>()
  const add = (p: DecodeProblem) => found.set(p.key, p)
  for (const { problem } of await snapshot.invalidPlacementsFor(
    dest.inventorySpaceId,
    dest.syncTargetUid
  ))
    add(problem)
  const seen = new Set(at.chosen.map((c) => `${c.ref.spaceId}/${c.ref.placement.metadata.name}`))
  const live = (at.current?.entries ?? []).filter((e) => !e.removing)
  for (const e of live) {
    for (const s of e.sources ?? []) {
      for (const name of s.placements) {
        const id = `${s.space}/${name}`
        if (seen.has(id)) continue
        seen.add(id)
        const problem = await snapshot.unknownPlacement(s.space, name)
        if (problem) add(problem)
      }
    }
  }
  const unattributed = live.some((e) => !e.sources && !neverLeaves(e))
  if (unattributed) for (const p of await snapshot.invalidSlices()) add(p)
  return [...found.values()]
}
