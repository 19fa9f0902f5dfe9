/**
 * What each placement naming a destination sends there under its space's Rollouts
 * (docs/architecture/placement.md, "Rollout"): the placement's live selection with every object a
 * Rollout governs replaced by the revision the destination is at (lib/rollout/hold.ts `holdFor`:
 * the destination's wave by its Location's labels, its place under the wave's cut by its
 * SyncTarget's uid) — the revision's stamped body, nothing for an object created since, the
 * revision's body for one deleted at the source that the placement's own rules would still
 * select. Objects no Rollout governs, and every object of a space without an adopted Rollout, go
 * as they are: the selection itself is handed back, so such a destination's content and share key
 * are what they were before Rollouts. The Location is the one the placement's slice names for the
 * destination (the first by name, destinations.ts), read by name (read only when some space has
 * an adopted Rollout; the names a wave of the batch asks for go out as one read). The held
 * selection is worked out once per placement and distinct set of revisions per batch, so a wave's
 * thousand mailboxes cost one hold. It names, per Rollout its objects were sent from, the
 * destination's place under it (`revisions`; lib/rollout/hold.ts `destinationPlace`: its wave,
 * and whether it is above the cut), which the share key includes (shared-content.ts): at any one
 * status a place is at one revision, so destinations at different revisions never share, and
 * those of one place share through the wave's promotion — the new revision is one write of their
 * shared manifest, not one write per mailbox.
 */
import type { Builtins } from '../../lib/apis/builtins.ts'
import { selectForPlacement } from '../../lib/placement/select.ts'
import type { Snapshot } from '../../lib/placement/snapshot.ts'
import type { Selection, SourceObject } from '../../lib/placement/types.ts'
import { destinationPlace, destinationRevision, holdFor } from '../../lib/rollout/hold.ts'
import { revisionKeyOf } from '../../lib/rollout/revision.ts'
import { stampOf } from '../../lib/rollout/stamp.ts'
import type { PlacementSelection } from './desired.ts'
import type { RolloutHolds, SpaceHold } from './rollout-holds.ts'

export type HeldSession = {
  snapshot: Pick<Snapshot, 'location'>
  holds: RolloutHolds
  /** Per live selection, its held selections by the revisions a destination is at (the batch's). */
  heldMemo: WeakMap<Selection, Map<string, Held>>
}

/** A held selection and the Rollouts its objects were sent from (their stamps' names). */
type Held = { selection: Selection; from: string[] }

const isNamespace = (o: SourceObject) => o.group === '' && o.resource === 'namespaces'

/** Which of `candidates` (held by a revision, gone at the source) the placement would select. */
function selectsAmong(
  builtins: Builtins,
  s: PlacementSelection,
  hold: SpaceHold,
  candidates: SourceObject[]
): SourceObject[] {
  const keys = new Set(candidates.map(revisionKeyOf))
  // Its namespaces decide what a namespaceSelector reaches: the live ones, or the revision's.
  const namespaces = hold.space.objects.filter((o) => isNamespace(o) && !keys.has(revisionKeyOf(o)))
  const space = { ...hold.space, objects: [...namespaces, ...candidates] }
  return selectForPlacement(s.ref.placement, space, builtins).objects.filter((o) =>
    keys.has(revisionKeyOf(o))
  )
}

/** The Rollouts a held selection's objects were sent from, by name, sorted. */
const sentFrom = (objects: readonly SourceObject[]) =>
  [...new Set(objects.flatMap((o) => stampOf(o.object)?.rollout ?? []))].sort()

export async function heldSelections(
  builtins: Builtins,
  session: HeldSession,
  dest: { inventorySpaceId: string; syncTargetUid: string },
  chosen: readonly PlacementSelection[]
): Promise<PlacementSelection[]> {
  return Promise.all(
    chosen.map(async (s) => {
      const hold = await session.holds.of(s.ref.spaceId)
      if (!hold.rollouts.some((r) => r.status?.completedRevision)) return s
      const location = s.location
        ? await session.snapshot.location(dest.inventorySpaceId, s.location.name)
        : undefined
      const at = { labels: location?.metadata.labels, syncTargetUid: dest.syncTargetUid }
      const vector = hold.rollouts
        .map((r) => `${r.name}=${destinationRevision(r.spec, r.status, at) ?? '-'}`)
        .join(',')
      let byVector = session.heldMemo.get(s.selection)
      if (!byVector) {
        byVector = new Map()
        session.heldMemo.set(s.selection, byVector)
      }
      let held = byVector.get(vector)
      if (!held) {
        const objects = holdFor({
          selected: s.selection.objects,
          liveKeys: hold.liveKeys,
          rollouts: hold.rollouts,
          dest: at,
          selects: (candidates) => selectsAmong(builtins, s, hold, candidates),
        })
        held = { selection: { ...s.selection, objects }, from: sentFrom(objects) }
        byVector.set(vector, held)
      }
      if (held.from.length === 0) return { ...s, selection: held.selection }
      const places = held.from.map((name) => {
        const r = hold.rollouts.find((x) => x.name === name)
        return `${name}:${r ? destinationPlace(r.spec, r.status, at) : ''}`
      })
      return { ...s, selection: held.selection, revisions: places.join(',') }
    })
  )
}
