/**
 * Reporting after a mailbox's commit (report.ts says how each report is written): per placement
 * once per batch, its `Translated` condition from its selection's problems, its overlap conflicts
 * (conflict-report.ts) and its customization problems (customization-report.ts), both over all
 * its destinations; an `UnsupportedObject` Event per unsupported object, a `NotGranted` Event per
 * privileged object its grants do not allow (lib/placement/grant-rule.ts), an Event per customization
 * problem (reason `CustomizerNotFound`, `UndefinedParameter` or `CustomizationFailed`, involvedObject
 * the source object, the message naming the Customizer or parameters and the destinations), and an
 * Event per overlap conflict (reason `TrustScopeConflict`, `MergeConflict` or
 * `APIVersionConflict`, involvedObject this space's object, the message naming the other workload
 * spaces of its trust scope, the fields and the destinations; another trust scope is only said to
 * be involved, conflict-report.ts).
 * Every space of a conflict gets its Events through its own placements, which the batch reports as
 * their destinations are translated. A placement whose customization inputs or overlaps cannot be
 * read is not reported in this batch (a later one does), rather than reported wrongly. Each
 * mailbox's conflicts are also logged, one JSON line per conflicting field (`logConflicts`). A
 * placement that names the destination but does not decode (the snapshot logs it and leaves it
 * out) gets only a Warning Event with reason InvalidSpec (`reportInvalidPlacements`).
 */

import type { Builtins } from '../../lib/apis/builtins.ts'
import { describeIssues } from '../../lib/apis/decode.ts'
import type { Logger } from '../../lib/log.ts'
import type { InvalidPlacement } from '../../lib/placement/snapshot.ts'
import type { SkipReason, SourceObject } from '../../lib/placement/types.ts'
import { conflictMessage, placementConflicts } from './conflict-report.ts'
import { placementCustomization } from './customization-report.ts'
import type { PlacementSelection } from './desired.ts'
import type { DestinationSession } from './destination-inputs.ts'
import type { Conflict } from './overlap.ts'
import type { Problem, ReportDeps } from './report.ts'
import { customizationMessage, ensureEvent, translatedCondition, writeCondition } from './report.ts'

export type ReportSession = DestinationSession & {
  /** Placements already reported in this batch (`<space id>/<uid>`). */
  reported: Set<string>
}

type Deps = ReportDeps & { builtins: Builtins }

/** The skip reasons that are the user's to fix, with the reason of their Warning Event. */
const SKIP_EVENTS: Partial<Record<SkipReason, string>> = {
  Unsupported: 'UnsupportedObject',
  NotGranted: 'NotGranted',
}

/** One warning line per conflicting field of a mailbox's overlapping workloads. */
export function logConflicts(log: Logger, mailbox: string, conflicts: readonly Conflict[]): void {
  for (const c of conflicts) {
    for (const f of c.fields) {
      log.warn('overlap conflict', {
        step: 'translate',
        mailbox,
        reason: c.reason,
        object: c.key,
        field: f.field,
        sources: c.sources.map((s) => ({ space: s.spaceId, resourceVersion: s.resourceVersion })),
        ...(c.left ? { notSent: c.left, sent: c.kept ?? [] } : {}),
      })
    }
  }
}

const involvedOf = (o: SourceObject): Problem['object'] => {
  const m = o.object.metadata
  return {
    apiVersion: o.object.apiVersion,
    kind: o.object.kind,
    namespace: o.namespaced ? (m.namespace ?? '') : '',
    name: m.name ?? '',
    ...(m.uid ? { uid: m.uid } : {}),
  }
}

/** The involvedObject of an Event about an object of a workload space, found by its key. */
async function involved(
  session: ReportSession,
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
  if (found) return involvedOf(found)
  const apiVersion = ref.group ? `${ref.group}/v1` : 'v1'
  return { apiVersion, kind: ref.resource, namespace: ref.namespace, name: ref.name }
}

async function reportPlacement(
  deps: Deps,
  session: ReportSession,
  { ref, selection }: PlacementSelection
): Promise<void> {
  const name = ref.placement.metadata.name ?? ''
  const id = `${ref.spaceId}/${ref.placement.metadata.uid}`
  session.reported.add(id)
  let customization: Awaited<ReturnType<typeof placementCustomization>>
  let conflicts: Awaited<ReturnType<typeof placementConflicts>>
  try {
    customization = await placementCustomization(
      session.snapshot,
      session.customizations,
      ref,
      selection
    )
    conflicts = await placementConflicts(deps.builtins, session, ref)
  } catch (e) {
    deps.log.warn('could not read customization inputs or overlaps', {
      spaceId: ref.spaceId,
      name,
      error: e,
    })
    session.reported.delete(id)
    return
  }
  try {
    const want = translatedCondition(selection, customization, conflicts)
    await writeCondition(deps, ref.spaceId, ref.placement, want)
  } catch (e) {
    deps.log.warn('could not set Translated condition', { spaceId: ref.spaceId, name, error: e })
  }
  for (const s of selection.skipped.filter((x) => x.reason in SKIP_EVENTS)) {
    await ensureEvent(deps, ref.spaceId, name, {
      reason: SKIP_EVENTS[s.reason] ?? s.reason,
      message: s.message,
      object: await involved(session, ref.spaceId, s),
    })
  }
  for (const c of customization) {
    await ensureEvent(deps, ref.spaceId, name, {
      reason: c.problem.reason,
      subject: c.problem.detail,
      message: customizationMessage(c),
      object: involvedOf(c.source),
    })
  }
  for (const c of conflicts) {
    const [group = '', resource = '', namespace = '', objName = ''] = c.key.split('/')
    await ensureEvent(deps, ref.spaceId, name, {
      reason: c.reason,
      message: conflictMessage(c),
      object: await involved(session, ref.spaceId, { group, resource, namespace, name: objName }),
    })
  }
}

export async function reportPlacements(
  deps: Deps,
  session: ReportSession,
  chosen: readonly PlacementSelection[]
): Promise<void> {
  for (const ps of chosen) {
    if (session.reported.has(`${ps.ref.spaceId}/${ps.ref.placement.metadata.uid}`)) continue
    await reportPlacement(deps, session, ps)
  }
}

/**
 * A Warning Event (reason InvalidSpec, naming the schema's issues) about each placement that does
 * not decode, once per batch. Not its Translated condition: the hub validates the whole object on
 * a status write, so a placement that breaks its schema cannot take one.
 */
export async function reportInvalidPlacements(
  deps: Deps,
  session: ReportSession,
  invalid: readonly InvalidPlacement[]
): Promise<void> {
  for (const { spaceId, problem } of invalid) {
    const { apiVersion, kind, metadata } = problem.object
    const id = `${spaceId}/${metadata.uid}`
    if (session.reported.has(id)) continue
    session.reported.add(id)
    const name = metadata.name ?? ''
    await ensureEvent(deps, spaceId, name, {
      reason: 'InvalidSpec',
      message: `the stored EdgePlacement does not match its schema and is not translated: ${describeIssues(problem)}`,
      object: {
        apiVersion,
        kind,
        namespace: '',
        name,
        ...(metadata.uid ? { uid: metadata.uid } : {}),
      },
    })
  }
}
