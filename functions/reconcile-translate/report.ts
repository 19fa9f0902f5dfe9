/**
 * What the translator tells the people who wrote the placements: a `Translated` condition on each
 * EdgePlacement (True when everything it selects can be projected; False naming the unsupported
 * objects or invalid selectors), and a Warning Event in the source space per reported problem
 * (an unsupported object it selects, an object that two workload spaces both send to one
 * destination). Both are level-based and written only when they differ: the condition keeps its
 * lastTransitionTime while its status holds, and an Event has a deterministic name per (placement,
 * object, reason), so running again (or for each of a thousand mailboxes) creates nothing new.
 * Per batch each placement is reported once. Failures to report are logged, never fatal: the
 * mailbox content matters more than the message about it.
 */
import { EDGE_PLACEMENTS } from '../../lib/apis/gvr.ts'
import { isApiError } from '../../lib/errors.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import { timestamp } from '../../lib/hub/deps.ts'
import type { JsonObject, KubeObject } from '../../lib/kube/types.ts'
import type { Logger } from '../../lib/log.ts'
import { eventName } from './names.ts'
import type { Selection } from './types.ts'

export const TRANSLATED = 'Translated'
const COMPONENT = 'edgeplane-translate'
const EVENTS = { group: '', version: 'v1', resource: 'events' }

export type Problem = {
  reason: string
  message: string
  /** The object the problem is about (an Event's involvedObject). */
  object: { apiVersion: string; kind: string; namespace: string; name: string; uid?: string }
}

export type ReportDeps = { client: HubClient; now: () => Date; log: Logger }

/** The condition a placement should carry, from its selection's problems. */
export function translatedCondition(selection: Selection): {
  status: 'True' | 'False'
  reason: string
  message: string
} {
  const unsupported = selection.skipped.filter((s) => s.reason === 'Unsupported')
  const problems = selection.problems
  if (unsupported.length === 0 && problems.length === 0)
    return { status: 'True', reason: 'Projected', message: 'every selected object is projected' }
  const parts = [...problems, ...unsupported.map((s) => s.message)]
  const reason = problems.length > 0 ? 'InvalidSelector' : 'UnsupportedObjects'
  const shown = parts.slice(0, 10).join('; ')
  const more = parts.length > 10 ? ` (and ${parts.length - 10} more)` : ''
  return { status: 'False', reason, message: `${shown}${more}` }
}

const isObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Sets the Translated condition when it differs; true when it wrote. */
export async function writeCondition(
  deps: ReportDeps,
  spaceId: string,
  ep: KubeObject,
  want: ReturnType<typeof translatedCondition>
): Promise<boolean> {
  const status: JsonObject = isObject(ep.status) ? ep.status : {}
  const conditions = Array.isArray(status.conditions) ? (status.conditions as JsonObject[]) : []
  const old = conditions.find((c) => c.type === TRANSLATED)
  const generation = ep.metadata.generation ?? 0
  if (
    old &&
    old.status === want.status &&
    old.reason === want.reason &&
    old.message === want.message &&
    old.observedGeneration === generation
  )
    return false
  const kept = old && old.status === want.status ? old.lastTransitionTime : undefined
  const condition: JsonObject = {
    type: TRANSLATED,
    ...want,
    observedGeneration: generation,
    lastTransitionTime: typeof kept === 'string' ? kept : timestamp(deps.now()),
  }
  const next = [...conditions.filter((c) => c.type !== TRANSLATED), condition]
  await deps.client.updateStatus(spaceId, EDGE_PLACEMENTS, {
    ...ep,
    status: { ...status, conditions: next },
  })
  return true
}

/** Ensures the Warning Event for a problem exists in the source space. */
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
    if (isApiError(e) && e.code === 409) return false
    deps.log.warn('could not record event', { spaceId, placement: placementName, error: e })
    return false
  }
}
