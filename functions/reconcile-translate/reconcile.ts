/**
 * The translate step for one key, a mailbox name `<inventory-space-id>-mb-<synctarget-uid>`: make
 * the mailbox hold exactly the projection of what the placements naming that destination select,
 * plus its SyncerConfig `the-one`. It re-reads the mailbox's manifest and, through the batch's
 * snapshot, the slices, placements and workload objects; computes the desired content
 * (desired.ts); and commits it in one manifest write with the manifest's version as precondition
 * (a concurrent writer makes it fail with Conflict and the key is retried). An unchanged result
 * writes nothing. A mailbox that does not exist yet (or is terminating) is left alone: the mailbox
 * step creates it and its creation wakes this key again. Reports (condition, Events) follow the
 * commit, once per placement per batch.
 */
import type { Builtins } from '../../lib/apis/builtins.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import type { Logger } from '../../lib/log.ts'
import { type ReconcileResult, TerminalError } from '../../lib/reconcile/types.ts'
import type { ProjectionStore } from '../../lib/store/projection-types.ts'
import { type Conflict, desiredContent, type PlacementSelection } from './desired.ts'
import { parseMailboxName } from './names.ts'
import { ensureEvent, type Problem, translatedCondition, writeCondition } from './report.ts'
import { selectForPlacement } from './select.ts'
import type { Snapshot } from './snapshot.ts'

export type TranslateDeps = {
  client: HubClient
  projections: ProjectionStore
  builtins: Builtins
  now: () => Date
  log: Logger
}

/** State of one batch: its snapshot and the placements already reported in it. */
export type TranslateSession = { snapshot: Snapshot; reported: Set<string> }

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
    }))
  )
}

/** The involvedObject of an Event about an object of a workload space. */
async function involved(
  session: TranslateSession,
  spaceId: string,
  ref: { group: string; resource: string; namespace: string; name: string }
): Promise<Problem['object']> {
  const found = (await session.snapshot.space(spaceId)).objects.find(
    (o) =>
      o.group === ref.group &&
      o.resource === ref.resource &&
      (o.namespaced ? (o.object.metadata.namespace ?? '') : '') === ref.namespace &&
      o.object.metadata.name === ref.name
  )
  const apiVersion = found?.object.apiVersion ?? (ref.group ? `${ref.group}/v1` : 'v1')
  const kind = found?.object.kind ?? ref.resource
  const uid = found?.object.metadata.uid
  return { apiVersion, kind, namespace: ref.namespace, name: ref.name, ...(uid ? { uid } : {}) }
}

async function report(
  deps: TranslateDeps,
  session: TranslateSession,
  chosen: readonly PlacementSelection[],
  conflicts: readonly Conflict[]
): Promise<void> {
  for (const { ref, selection } of chosen) {
    const id = `${ref.spaceId}/${ref.placement.metadata.uid}`
    if (session.reported.has(id)) continue
    session.reported.add(id)
    const name = ref.placement.metadata.name ?? ''
    try {
      await writeCondition(deps, ref.spaceId, ref.placement, translatedCondition(selection))
    } catch (e) {
      deps.log.warn('could not set Translated condition', { spaceId: ref.spaceId, name, error: e })
    }
    for (const s of selection.skipped.filter((x) => x.reason === 'Unsupported')) {
      await ensureEvent(deps, ref.spaceId, name, {
        reason: 'UnsupportedObject',
        message: s.message,
        object: await involved(session, ref.spaceId, s),
      })
    }
  }
  for (const c of conflicts) {
    const [group = '', resource = '', namespace = '', objName = ''] = c.key.split('/')
    const spaces = [c.chosen, ...c.others].map((x) => x.spaceId)
    deps.log.warn('projection conflict', { key: c.key, chosen: c.chosen, others: c.others })
    for (const spaceId of spaces) {
      const ep = chosen.find((s) => s.ref.spaceId === spaceId)?.ref.placement.metadata.name
      await ensureEvent(deps, spaceId, ep ?? 'translate', {
        reason: 'ProjectionConflict',
        message: `${resource}${group ? `.${group}` : ''} ${namespace ? `${namespace}/` : ''}${objName} is also sent to the same destination from space(s) ${spaces.filter((x) => x !== spaceId).join(', ')}; the copy with resourceVersion ${c.chosen.resourceVersion} from space ${c.chosen.spaceId} is used`,
        object: await involved(session, spaceId, { group, resource, namespace, name: objName }),
      })
    }
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
  const { entries, conflicts } = desiredContent(chosen, previous, deps.builtins)
  const res = await deps.projections.writeManifest(
    mailbox.id,
    entries,
    current ? current.version : null,
    deps.now()
  )
  await report(deps, session, chosen, conflicts)
  const outcome = res.written
    ? `placements ${chosen.length}: added ${res.added}, changed ${res.changed}, removed ${res.removed}`
    : `placements ${chosen.length}: unchanged`
  return { outcome }
}
