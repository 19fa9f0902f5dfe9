/**
 * The conditions of a workload object's status aggregated over the edges that report it
 * (multi-edge-status.ts): one condition per type any edge reports, in the order the edges first
 * report them. A condition that says something is wrong when True (`ReplicaFailure`, `Failed`,
 * `FailureTarget`, `DisruptionTarget`, `Suspended`) is True when it is True at any edge; any
 * other (`Available`, `Progressing`, `Complete`, `Ready`, ...) is False when it is False at any
 * edge, True only when it is True at every edge, and Unknown otherwise (some edge has not reported
 * it yet), so `kubectl wait --for=condition=Available` returns only once every edge is available
 * and a Progressing=False ProgressDeadlineExceeded at one edge makes the object's. The reason,
 * message and times are those of the first edge (in destination order) at the aggregate status;
 * the message names that edge unless every edge says the same; lastTransitionTime and
 * lastUpdateTime are the latest of the edges at that status. Pure.
 */
import type { JsonObject, JsonValue } from '../kube/types.ts'
import { isJsonObject } from '../patch/json-values.ts'

/** The condition types whose True is the bad news. */
const TRUE_IS_TROUBLE: ReadonlySet<string> = new Set([
  'ReplicaFailure',
  'Failed',
  'FailureTarget',
  'DisruptionTarget',
  'Suspended',
])

/** One edge's conditions of the object, by the edge's name. */
export type EdgeConditions = { edge: string; conditions: JsonObject[] }

/** The `conditions` list of a status, as objects with a string type. */
export function conditionsOf(status: JsonValue | undefined): JsonObject[] {
  const list = isJsonObject(status) && Array.isArray(status.conditions) ? status.conditions : []
  return list.filter((c): c is JsonObject => isJsonObject(c) && typeof c.type === 'string')
}

const str = (v: JsonValue | undefined) => (typeof v === 'string' ? v : undefined)

const latest = (values: (string | undefined)[]) =>
  values
    .filter((v): v is string => v !== undefined)
    .sort()
    .at(-1)

function aggregateStatus(type: string, statuses: (string | undefined)[]): string {
  if (TRUE_IS_TROUBLE.has(type)) {
    if (statuses.includes('True')) return 'True'
    return statuses.includes('Unknown') ? 'Unknown' : 'False'
  }
  if (statuses.includes('False')) return 'False'
  return statuses.every((s) => s === 'True') ? 'True' : 'Unknown'
}

function merged(type: string, edges: readonly EdgeConditions[]): JsonObject {
  const found = edges.map((e) => ({
    edge: e.edge,
    c: e.conditions.find((c) => c.type === type),
  }))
  const status = aggregateStatus(
    type,
    found.map((f) => str(f.c?.status))
  )
  const at = found.filter((f) => str(f.c?.status) === status)
  const first = at[0]
  if (!first?.c) {
    const missing = found.filter((f) => !f.c).map((f) => f.edge)
    return {
      type,
      status,
      reason: 'NotReportedByEveryEdge',
      message: `not reported yet by ${missing.join(', ')}`,
    }
  }
  const message = str(first.c.message) ?? ''
  const same = at.length === found.length && at.every((f) => str(f.c?.message) === message)
  const out: JsonObject = { type, status }
  const reason = str(first.c.reason)
  if (reason !== undefined) out.reason = reason
  out.message = same || found.length === 1 || message === '' ? message : `${first.edge}: ${message}`
  const updated = latest(at.map((f) => str(f.c?.lastUpdateTime)))
  if (updated !== undefined) out.lastUpdateTime = updated
  const moved = latest(at.map((f) => str(f.c?.lastTransitionTime)))
  if (moved !== undefined) out.lastTransitionTime = moved
  return out
}

/** The aggregated conditions of the edges' conditions (every edge reporting counts). */
export function mergeConditions(edges: readonly EdgeConditions[]): JsonObject[] {
  const types: string[] = []
  for (const e of edges)
    for (const c of e.conditions)
      if (!types.includes(c.type as string)) types.push(c.type as string)
  return types.map((t) => merged(t, edges))
}
