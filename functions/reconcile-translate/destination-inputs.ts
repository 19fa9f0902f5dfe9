/**
 * What the translate step reads for one destination (a mailbox: inventory space id + SyncTarget
 * uid) through the batch's snapshot: the placements whose slices name it with what each selects,
 * and the customization of its copies (inputs read only when some selected object asks). Used by
 * the reconcile of that mailbox and by the reports, which need the overlap conflicts of every
 * destination of a placement (so that every mailbox computes the same condition): those are
 * memoized per batch in `overlaps`, the reconcile filling in its own destination, and computed
 * only where placements of more than one workload space meet (elsewhere nothing can conflict),
 * with the memory-free version choice (which sources are left out does not depend on memory).
 * Each selection carries its space's grant, which says which spaces it may be merged with.
 */
import type { Builtins } from '../../lib/apis/builtins.ts'
import { asksForCustomization } from '../../lib/customize/annotations.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { selectForPlacement } from '../../lib/placement/select.ts'
import type { Snapshot } from '../../lib/placement/snapshot.ts'
import type { SpaceSnapshot } from '../../lib/placement/types.ts'
import { perObject } from '../../lib/store/per-store.ts'
import { type Customizations, loadInputs } from './customization.ts'
import { type Customize, firstChoice, type PlacementSelection } from './desired.ts'
import { locationFor } from './destinations.ts'
import { type Conflict, combine } from './overlap.ts'

export type DestinationSession = {
  snapshot: Snapshot
  customizations: Customizations
  /** Conflicts per destination (`<inventory space id>/<SyncTarget uid>`) in this batch. */
  overlaps: Map<string, Promise<Conflict[]>>
}

export const destinationKey = (inventorySpaceId: string, syncTargetUid: string) =>
  `${inventorySpaceId}/${syncTargetUid}`

/**
 * What a placement selects in its space's snapshot, once per placement object and snapshot (the
 * batch's, never changed): every mailbox of the placement gets the same Selection, instead of
 * each filtering the whole space again.
 */
const selectOnce = perObject((builtins: Builtins) =>
  perObject((placement: KubeObject) =>
    perObject((space: SpaceSnapshot) => selectForPlacement(placement, space, builtins))
  )
)

export async function destinationSelections(
  builtins: Builtins,
  session: Pick<DestinationSession, 'snapshot'>,
  inventorySpaceId: string,
  syncTargetUid: string
): Promise<PlacementSelection[]> {
  const refs = await session.snapshot.placementsFor(inventorySpaceId, syncTargetUid)
  return Promise.all(
    refs.map(async (ref) => ({
      ref,
      selection: selectOnce(builtins)(ref.placement)(await session.snapshot.space(ref.spaceId)),
      registry: await session.snapshot.registry(ref.spaceId),
      location: locationFor(ref.slice, inventorySpaceId, syncTargetUid),
      grant: await session.snapshot.grantOf(ref.spaceId),
    }))
  )
}

/** The customization of a destination's copies, or undefined when no selected object asks. */
export async function destinationCustomizer(
  session: Omit<DestinationSession, 'overlaps'>,
  chosen: readonly PlacementSelection[],
  inventorySpaceId: string
): Promise<Customize | undefined> {
  const asking = chosen
    .filter((s) => s.selection.objects.some((o) => asksForCustomization(o.object)))
    .map((s) => s.ref.spaceId)
  if (asking.length === 0) return undefined
  const inputs = await loadInputs(session.snapshot, asking, [inventorySpaceId])
  return (spaceId, source, location) => {
    if (!asksForCustomization(source.object)) return undefined
    const out = session.customizations.outcome(inputs, spaceId, source.object, location)
    return 'body' in out ? out.body : undefined
  }
}

async function computeOverlaps(
  builtins: Builtins,
  session: DestinationSession,
  inventorySpaceId: string,
  syncTargetUid: string
): Promise<Conflict[]> {
  const refs = await session.snapshot.placementsFor(inventorySpaceId, syncTargetUid)
  if (new Set(refs.map((r) => r.spaceId)).size < 2) return []
  const chosen = await destinationSelections(builtins, session, inventorySpaceId, syncTargetUid)
  const customize = await destinationCustomizer(session, chosen, inventorySpaceId)
  const { gathered, versions } = firstChoice(chosen)
  return combine(gathered, (g) => versions.get(g) ?? '', { customize }).conflicts
}

/** The overlap conflicts at a destination, once per batch. */
export function destinationOverlaps(
  builtins: Builtins,
  session: DestinationSession,
  inventorySpaceId: string,
  syncTargetUid: string
): Promise<Conflict[]> {
  const key = destinationKey(inventorySpaceId, syncTargetUid)
  let hit = session.overlaps.get(key)
  if (!hit) {
    hit = computeOverlaps(builtins, session, inventorySpaceId, syncTargetUid)
    session.overlaps.set(key, hit)
  }
  return hit
}
