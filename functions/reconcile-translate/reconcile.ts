/**
 * The translate step for one key, a mailbox name `<inventory-space-id>-mb-<synctarget-uid>`: make
 * the mailbox hold exactly the projection of what the placements naming that destination select,
 * plus its SyncerConfig `the-one`. It re-reads the mailbox's space and manifest (read ahead with
 * the batch's next keys, mailbox-reads.ts) and, through the batch's
 * snapshot, the slices, placements and workload objects; puts each placement's selection under
 * its space's Rollouts (held-selections.ts: a governed object goes at the revision this
 * destination is at, stamped; a failed read of a Rollout, record or body fails the key before
 * anything is written); computes the desired content (desired.ts); and commits it in one manifest write with the manifest's version as precondition
 * (a concurrent writer makes it fail with Conflict and the key is retried), sent together with
 * the writes of the batch's other runs (manifest-commits.ts), then moves the
 * `manifests` epoch the edge API's idle polls rely on; a copy that leaves
 * becomes a tombstone until the edge confirms it gone (removal-plan.ts). An unchanged result
 * writes nothing. A mailbox that holds all its copies through a shared manifest, with the inputs
 * of one whose run in the batch found nothing to write but the shared manifest (shared-content.ts
 * `SettledShares`), plans no write: it confirms its manifest's version with the wave's group
 * (a Conflict if it moved, and the run starts again on fresh reads), so a change of content
 * shared by N mailboxes plans one write, not N. Before that, each API group's version is chosen with the version-choice memory
 * (version-memory.ts: skipped without a read when nothing can depend on it, and written only where
 * the manifest's live copies cannot stand for it), and the conflicts of
 * overlapping workloads are logged and kept in the batch for the reports. Objects asking for customization are customized for this destination first
 * (customization.ts; inputs read only when some object asks). A mailbox that does not exist yet (or
 * is terminating) is left alone: the mailbox step creates it and its creation wakes this key
 * again. Reports (condition, Events) follow the commit, once per placement per batch
 * (report-placements.ts). Placements, slices, Customizers and Locations come decoded from the
 * snapshot; one that does not decode is left out (an invalid placement gets an InvalidSpec Event),
 * but is not taken for absent: a mailbox it may have delivered to is not rewritten this round
 * (held-mailbox.ts), so none of its copies turns into a tombstone; one warning per placement per
 * batch names it.
 */
import type { Builtins } from '../../lib/apis/builtins.ts'
import type { DecodeProblem } from '../../lib/apis/decode.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import type { Logger } from '../../lib/log.ts'
import { type ReconcileResult, TerminalError } from '../../lib/reconcile/types.ts'
import type { EpochAnnouncer } from '../../lib/store/epochs.ts'
import type { ProjectionStore } from '../../lib/store/projection-types.ts'
import type { KvStore } from '../../lib/store/types.ts'
import type { AuthoredOrder } from './authored-order.ts'
import { type Destination, planContent } from './content-plan.ts'
import type { DesiredContent } from './desired.ts'
import { destinationKey, destinationSelections } from './destination-inputs.ts'
import { holdingPlacements } from './held-mailbox.ts'
import { type HeldSession, heldSelections } from './held-selections.ts'
import type { MailboxReads } from './mailbox-reads.ts'
import type { ManifestCommits } from './manifest-commits.ts'
import { parseMailboxName, TRANSLATE_STEP } from './names.ts'
import { planRemovals } from './removal-plan.ts'
import {
  logConflicts,
  type ReportSession,
  reportInvalidPlacements,
  reportPlacements,
} from './report-placements.ts'
import { type ContentMemo, pureShare, type SettledShares, shareKey } from './shared-content.ts'
import { liveVersions } from './version-memory.ts'

export type TranslateDeps = {
  client: HubClient
  projections: ProjectionStore
  builtins: Builtins
  now: () => Date
  log: Logger
  /** The version-choice memory (version-memory.ts). */
  kv: KvStore
}

/**
 * State of one batch: its snapshot, customization memo, the placements reported in it and the
 * unknown placements already logged as holding mailboxes (by key).
 */
export type TranslateSession = ReportSession & {
  held: Set<string>
  /**
   * Moves the `manifests` epoch after the batch's writes (lib/store/epochs.ts `epochAnnouncer`,
   * settled when the batch ends), so edge API processes stop answering idle polls from what they
   * remembered.
   */
  announcer: EpochAnnouncer
  /** Where the batch's manifest writes go, to be committed together (manifest-commits.ts). */
  commits: ManifestCommits
  /** The batch's mailbox spaces and manifests, read ahead (mailbox-reads.ts). */
  mailboxes: MailboxReads
  /** Desired contents computed in the batch, by their inputs (shared-content.ts). */
  contents: ContentMemo
  /** What the batch's runs found of their shared manifests' contents (shared-content.ts). */
  settled: SettledShares
  /** When the sources of the batch's merges were last updated (authored-order.ts). */
  authored: AuthoredOrder
} & Omit<HeldSession, 'snapshot'>

/** One warning per unknown placement per batch: the mailboxes it reaches are kept as they are. */
function logHeld(deps: TranslateDeps, session: TranslateSession, held: readonly DecodeProblem[]) {
  for (const p of held) {
    if (session.held.has(p.key)) continue
    session.held.add(p.key)
    deps.log.warn('mailboxes kept as they are: a placement does not decode', {
      step: TRANSLATE_STEP,
      kind: p.object.kind,
      key: p.key,
    })
  }
}

export async function reconcileTranslate(
  deps: TranslateDeps,
  session: TranslateSession,
  key: string
): Promise<ReconcileResult> {
  const dest = parseMailboxName(key)
  if (!dest) throw new TerminalError(`"${key}" is not a mailbox name (<space-id>-mb-<uid>)`)
  let read = await session.mailboxes.read(key)
  const mailbox = read.space
  if (!mailbox) return { outcome: 'no mailbox yet' }
  if (mailbox.phase !== 'Ready') return { outcome: 'mailbox terminating' }
  const chosen = await destinationSelections(
    deps.builtins,
    session,
    dest.inventorySpaceId,
    dest.syncTargetUid
  )
  const invalid = await session.snapshot.invalidPlacementsFor(
    dest.inventorySpaceId,
    dest.syncTargetUid
  )
  const held = await holdingPlacements(session.snapshot, dest, { chosen, current: read.manifest })
  const report = async () => {
    await reportPlacements(deps, session, chosen)
    await reportInvalidPlacements(deps, session, invalid)
  }
  if (held.length > 0) {
    logHeld(deps, session, held)
    await report()
    return { outcome: `held: ${held.map((p) => p.key).join(', ')} cannot be read` }
  }
  // What each placement sends here under its space's Rollouts; the reports judge the live one.
  const sent = await heldSelections(deps.builtins, session, dest, chosen)
  const inputs = { dest, chosen: sent, mailboxId: mailbox.id }
  let planned = await planContent(deps, session, inputs, read)
  // The settled key this run claimed, and how it tells the runs waiting on it what it found.
  let claimed: string | undefined
  let tell: (found: boolean) => void = () => undefined
  try {
    for (;;) {
      // A member like one the batch already found with nothing to write: confirm, do not plan.
      const { current, settled, choice, entries } = planned
      const found =
        settled === undefined || settled === claimed ? undefined : session.settled.found(settled)
      if (current && found && (await session.commits.aside(found))) {
        tell(false)
        logContent(deps, session, { key, dest }, planned.conflicts)
        await choice.remember(liveVersions(entries))
        await session.commits.confirm(mailbox.id, current.version)
        await report()
        return { outcome: `placements ${chosen.length}: unchanged` }
      }
      // Claimed before reading on, so that the runs of the same wave wait for this one.
      if (settled !== claimed) {
        tell(false)
        tell = settled === undefined ? () => undefined : session.settled.claim(settled)
        claimed = settled
      }
      if (!read.viaShared) break
      // Read without its own copies' identities: plan a write only from the whole manifest.
      read = { ...read, manifest: await session.mailboxes.readFull(mailbox.id), viaShared: false }
      planned = await planContent(deps, session, inputs, read)
    }
    const { current, bodies, customize, choice, versions, entries, conflicts, share, madeOf } =
      planned
    logContent(deps, session, { key, dest }, conflicts)
    // Copies leaving the mailbox stay as tombstones until the edge confirms (removal-plan.ts).
    const removal = await planRemovals(
      deps,
      { id: mailbox.id, name: key },
      { chosen: sent, current, bodies, desired: entries, madeOf }
    )
    await choice.remember(liveVersions(entries))
    const res = await session.commits.write(mailbox.id, {
      desired: removal.entries,
      expectedVersion: current ? current.version : null,
      now: deps.now(),
      known: current ?? null,
      // Without customization, the live copies are shared with the same inputs' mailboxes.
      ...(customize ? {} : { share: shareKey(sent, versions) }),
    })
    tell(share !== undefined && pureShare(res.manifest) === share)
    await removal.settle()
    if (res.written) session.announcer.announce()
    await report()
    const outcome = res.written
      ? `placements ${chosen.length}: added ${res.added}, changed ${res.changed}, removed ${res.removed}`
      : `placements ${chosen.length}: unchanged`
    return { outcome }
  } catch (e) {
    tell(false)
    throw e
  }
}

/** The batch keeps the destination's conflicts for the reports; the log names them once. */
function logContent(
  deps: TranslateDeps,
  session: TranslateSession,
  { key, dest }: { key: string; dest: Destination },
  conflicts: DesiredContent['conflicts']
) {
  session.overlaps.set(
    destinationKey(dest.inventorySpaceId, dest.syncTargetUid),
    Promise.resolve(conflicts)
  )
  logConflicts(deps.log, key, conflicts)
}
