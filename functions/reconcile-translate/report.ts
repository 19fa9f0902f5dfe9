/**
 * What the translator tells the people who wrote the placements: a `Translated` condition on each
 * EdgePlacement (True when everything it selects can be projected as asked; False naming invalid
 * selectors, unsupported objects, privileged objects its grants do not allow (never sent), objects
 * another trust scope places too (never merged, trust-scopes.ts), objects not sent or merged with
 * another workload space's at some destinations, or objects sent uncustomized to some
 * destinations — the reason the first of these kinds present: InvalidSelector,
 * UnsupportedObjects, NotGranted, TrustScopeConflict, APIVersionConflict, MergeConflict,
 * CustomizationFailed), and a Warning Event in the source space per reported problem (an
 * unsupported or not granted object it selects, an overlap conflict, a customization that failed,
 * a stored placement that does not decode: InvalidSpec, naming the schema's issues).
 * Both are level-based and written only when they differ: the condition keeps its
 * lastTransitionTime while its status holds, and an Event has a deterministic name per (placement,
 * object, reason, subject), so running again (or for each of a thousand mailboxes) creates nothing
 * new; when its message changed (say, the destinations a customization fails for), the Event is
 * updated with the new message, a higher count and a new lastTimestamp. Per batch each placement is
 * reported once. Failures to report are logged, never fatal: the mailbox content matters more
 * than the message about it.
 */

import type { Condition } from '../../lib/apis/meta.ts'
import { isApiError } from '../../lib/errors.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import { conditionFor, conditionHolds } from '../../lib/kube/conditions.ts'
import { timestamp } from '../../lib/kube/time.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import type { Logger } from '../../lib/log.ts'
import type { Selection } from '../../lib/placement/types.ts'
import { applyPlacementStatus } from '../../lib/reconcile/placement-status.ts'
import { type ConflictReport, conflictMessage } from './conflict-report.ts'
import {
  type CustomizationReport,
  describeSource,
  listDestinations,
} from './customization-report.ts'
import { eventName } from './names.ts'

export const TRANSLATED = 'Translated'
const COMPONENT = 'edgeplane-translate'
const EVENTS = { group: '', version: 'v1', resource: 'events' }

export type Problem = {
  reason: string
  message: string
  /** What distinguishes problems of one reason about one object (a Customizer, parameters). */
  subject?: string
  /** The object the problem is about (an Event's involvedObject). */
  object: { apiVersion: string; kind: string; namespace: string; name: string; uid?: string }
}

export type ReportDeps = { client: HubClient; now: () => Date; log: Logger }

/** How a customization problem reads in the condition and its Event. */
export function customizationMessage(c: CustomizationReport): string {
  const n = c.destinations.length
  return `${describeSource(c.source)}: ${c.problem.detail}; sent uncustomized to ${n} destination${n === 1 ? '' : 's'}: ${listDestinations(c.destinations)}`
}

/** The condition a placement should carry, from all its problems (selection, overlaps, customization). */
export function translatedCondition(
  selection: Selection,
  customization: readonly CustomizationReport[] = [],
  conflicts: readonly ConflictReport[] = []
): {
  status: 'True' | 'False'
  reason: string
  message: string
} {
  const unsupported = selection.skipped.filter((s) => s.reason === 'Unsupported')
  const notGranted = selection.skipped.filter((s) => s.reason === 'NotGranted')
  const problems = selection.problems
  const scopes = conflicts.filter((c) => c.reason === 'TrustScopeConflict')
  const versions = conflicts.filter((c) => c.reason === 'APIVersionConflict')
  const merges = conflicts.filter((c) => c.reason === 'MergeConflict')
  const kinds: [string, string[]][] = [
    ['InvalidSelector', problems],
    ['UnsupportedObjects', unsupported.map((s) => s.message)],
    ['NotGranted', notGranted.map((s) => s.message)],
    ['TrustScopeConflict', scopes.map(conflictMessage)],
    ['APIVersionConflict', versions.map(conflictMessage)],
    ['MergeConflict', merges.map(conflictMessage)],
    ['CustomizationFailed', customization.map(customizationMessage)],
  ]
  const parts = kinds.flatMap(([, list]) => list)
  if (parts.length === 0)
    return { status: 'True', reason: 'Projected', message: 'every selected object is projected' }
  const reason = kinds.find(([, list]) => list.length > 0)?.[0] ?? 'CustomizationFailed'
  const shown = parts.slice(0, 10).join('; ')
  const more = parts.length > 10 ? ` (and ${parts.length - 10} more)` : ''
  return { status: 'False', reason, message: `${shown}${more}` }
}

/** What writeCondition reads of a placement: its identity and its status's conditions. */
export type ConditionTarget = Pick<KubeObject, 'apiVersion' | 'kind' | 'metadata'> & {
  status?: { conditions?: Condition[] }
}

/**
 * Applies the Translated condition, the translate step's one status field
 * (lib/reconcile/placement-status.ts: server-side apply as `edgeplane-translate`, which owns that
 * condition and nothing else); true when it applied. `ep` comes from the batch's snapshot: it
 * decides only whether the condition already holds (so an unchanged one costs nothing) and which
 * lastTransitionTime it keeps, both about the condition this step alone writes. The where and
 * summarize steps' fields are theirs and are never sent, so their writes since the snapshot
 * cannot conflict; a placement re-created since is left to its own run.
 */
export async function writeCondition(
  deps: ReportDeps,
  spaceId: string,
  ep: ConditionTarget,
  want: ReturnType<typeof translatedCondition>
): Promise<boolean> {
  const conditions = ep.status?.conditions ?? []
  const generation = ep.metadata.generation ?? 0
  if (conditionHolds(conditions, TRANSLATED, want, generation)) return false
  const condition = conditionFor(conditions, TRANSLATED, want, {
    generation,
    now: timestamp(deps.now()),
  })
  return applyPlacementStatus(deps.client, {
    spaceId,
    ep,
    writer: 'translate',
    status: { conditions: [condition] },
  })
}

/** An existing Event whose message is stale gets the new one; true when it wrote. */
async function refreshEvent(
  deps: ReportDeps,
  spaceId: string,
  event: KubeObject
): Promise<boolean> {
  const name = event.metadata.name ?? ''
  const old = await deps.client.get(spaceId, EVENTS, name, event.metadata.namespace)
  if (!old || old.message === event.message) return false
  const count = typeof old.count === 'number' ? old.count + 1 : 2
  await deps.client.update(spaceId, EVENTS, {
    ...old,
    message: event.message ?? '',
    count,
    lastTimestamp: event.lastTimestamp ?? null,
  })
  return true
}

/** Ensures the Warning Event for a problem exists in the source space, with this message. */
export async function ensureEvent(
  deps: ReportDeps,
  spaceId: string,
  placementName: string,
  p: Problem
): Promise<boolean> {
  const namespace = p.object.namespace || 'default'
  const at = timestamp(deps.now())
  const event: KubeObject = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: eventName(placementName, p), namespace },
    involvedObject: { ...p.object, ...(p.object.namespace ? {} : { namespace: '' }) },
    reason: p.reason,
    message: p.message,
    type: 'Warning',
    source: { component: COMPONENT },
    reportingComponent: COMPONENT,
    firstTimestamp: at,
    lastTimestamp: at,
    count: 1,
  }
  try {
    await deps.client.create(spaceId, EVENTS, event)
    return true
  } catch (e) {
    try {
      if (isApiError(e) && e.code === 409) return await refreshEvent(deps, spaceId, event)
      throw e
    } catch (err) {
      deps.log.warn('could not record event', { spaceId, placement: placementName, error: err })
      return false
    }
  }
}
