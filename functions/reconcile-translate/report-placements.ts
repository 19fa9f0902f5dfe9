/**
 * Reporting after a mailbox's commit (report.ts says how each report is written): per placement
 * once per batch, its `Translated` condition from its selection's problems and its customization
 * problems over all its destinations (customization-report.ts), an `UnsupportedObject` Event per
 * unsupported object and an Event per customization problem (reason `CustomizerNotFound`,
 * `UndefinedParameter` or `CustomizationFailed`, involvedObject the source object, the message
 * naming the Customizer or parameters and the destinations); then a `ProjectionConflict` Event in
 * each space of a conflict. A placement whose customization inputs cannot be read is not reported
 * in this batch (a later one does), rather than reported wrongly.
 */

import type { Customizations } from './customization.ts'
import { placementCustomization } from './customization-report.ts'
import type { Conflict, PlacementSelection } from './desired.ts'
import type { Problem, ReportDeps } from './report.ts'
import { customizationMessage, ensureEvent, translatedCondition, writeCondition } from './report.ts'
import type { Snapshot } from './snapshot.ts'
import type { SourceObject } from './types.ts'

export type ReportSession = {
  snapshot: Snapshot
  /** Placements already reported in this batch (`<space id>/<uid>`). */
  reported: Set<string>
  customizations: Customizations
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
  deps: ReportDeps,
  session: ReportSession,
  { ref, selection }: PlacementSelection
): Promise<void> {
  const name = ref.placement.metadata.name ?? ''
  const id = `${ref.spaceId}/${ref.placement.metadata.uid}`
  session.reported.add(id)
  let customization: Awaited<ReturnType<typeof placementCustomization>>
  try {
    customization = await placementCustomization(
      session.snapshot,
      session.customizations,
      ref,
      selection
    )
  } catch (e) {
    deps.log.warn('could not read customization inputs', { spaceId: ref.spaceId, name, error: e })
    session.reported.delete(id)
    return
  }
  try {
    const want = translatedCondition(selection, customization)
    await writeCondition(deps, ref.spaceId, ref.placement, want)
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
  for (const c of customization) {
    await ensureEvent(deps, ref.spaceId, name, {
      reason: c.problem.reason,
      subject: c.problem.detail,
      message: customizationMessage(c),
      object: involvedOf(c.source),
    })
  }
}

export async function reportPlacements(
  deps: ReportDeps,
  session: ReportSession,
  chosen: readonly PlacementSelection[],
  conflicts: readonly Conflict[]
): Promise<void> {
  for (const ps of chosen) {
    if (session.reported.has(`${ps.ref.spaceId}/${ps.ref.placement.metadata.uid}`)) continue
    await reportPlacement(deps, session, ps)
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
