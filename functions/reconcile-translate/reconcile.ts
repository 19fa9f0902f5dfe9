/**
 * The translate step for one key, a mailbox name `<inventory-space-id>-mb-<synctarget-uid>`: make
 * the mailbox hold exactly the projection of what the placements naming that destination select,
 * plus its SyncerConfig `the-one`. It re-reads the mailbox's manifest and, through the batch's
 * snapshot, the slices, placements and workload objects; computes the desired content
 * (desired.ts); and commits it in one manifest write with the manifest's version as precondition
 * (a concurrent writer makes it fail with Conflict and the key is retried). An unchanged result
 * writes nothing. Objects asking for customization are customized for this destination first
 * (customization.ts; inputs read only when some object asks). A mailbox that does not exist yet (or
 * is terminating) is left alone: the mailbox step creates it and its creation wakes this key
 * again. Reports (condition, Events) follow the commit, once per placement per batch
 * (report-placements.ts).
 */
import type { Builtins } from '../../lib/apis/builtins.ts'
import { asksForCustomization } from '../../lib/customize/annotations.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import type { Logger } from '../../lib/log.ts'
import { type ReconcileResult, TerminalError } from '../../lib/reconcile/types.ts'
import type { ProjectionStore } from '../../lib/store/projection-types.ts'
import { loadInputs } from './customization.ts'
import { type Customize, desiredContent, type PlacementSelection } from './desired.ts'
import { locationFor } from './destinations.ts'
import { parseMailboxName } from './names.ts'
import { type ReportSession, reportPlacements } from './report-placements.ts'
import { selectForPlacement } from './select.ts'

export type TranslateDeps = {
  client: HubClient
  projections: ProjectionStore
  builtins: Builtins
  now: () => Date
  log: Logger
}

/** State of one batch: its snapshot, customization memo and the placements reported in it. */
export type TranslateSession = ReportSession

async function selections(
  deps: TranslateDeps,
  session: TranslateSession,
  inventorySpaceId: string,
  syncTargetUid: string
): Promise<PlacementSelection[]> {
  const refs = await session.snapshot.placementsFor(inventorySpaceId, syncTargetUid)
  return Promise.all(
    refs.map(async (ref) => ({
      ref,
      selection: selectForPlacement(
        ref.placement,
        await session.snapshot.space(ref.spaceId),
        deps.builtins
      ),
      registry: await session.snapshot.registry(ref.spaceId),
      location: locationFor(ref.slice, inventorySpaceId, syncTargetUid),
    }))
  )
}

/** The customization of this mailbox's copies, or undefined when no selected object asks. */
async function customizer(
  session: TranslateSession,
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

export async function reconcileTranslate(
  deps: TranslateDeps,
  session: TranslateSession,
  key: string
): Promise<ReconcileResult> {
  const dest = parseMailboxName(key)
  if (!dest) throw new TerminalError(`"${key}" is not a mailbox name (<space-id>-mb-<uid>)`)
  const mailbox = await session.snapshot.mailboxSpace(key)
  if (!mailbox) return { outcome: 'no mailbox yet' }
  if (mailbox.phase !== 'Ready') return { outcome: 'mailbox terminating' }
  const chosen = await selections(deps, session, dest.inventorySpaceId, dest.syncTargetUid)
  const current = await deps.projections.getManifest(mailbox.id)
  const bodies = current
    ? await deps.projections.getBodies(current.entries.map((e) => e.hash))
    : new Map()
  const previous = (current?.entries ?? []).map((entry) => ({
    entry,
    body: bodies.get(entry.hash),
  }))
  const customize = await customizer(session, chosen, dest.inventorySpaceId)
  const { entries, conflicts } = desiredContent(chosen, previous, deps.builtins, customize)
  const res = await deps.projections.writeManifest(
    mailbox.id,
    entries,
    current ? current.version : null,
    deps.now()
  )
  await reportPlacements(deps, session, chosen, conflicts)
  const outcome = res.written
    ? `placements ${chosen.length}: added ${res.added}, changed ${res.changed}, removed ${res.removed}`
    : `placements ${chosen.length}: unchanged`
  return { outcome }
}
