/**
 * The status of a workload object placed on several edges, aggregated from what every selected
 * edge reports (KubeStellar v0.29's `wantMultiWECReportedState`: the minimum for counts, any False
 * for a condition), for the kinds whose readiness the summarize step knows (readiness.ts):
 * Deployment, ReplicaSet, StatefulSet, DaemonSet, Job and Pod. It means "at every selected,
 * reporting edge", so kube's own tools can wait on the object in the center:
 * - Only live edges (liveness.ts) count: a stale edge's last report is not taken as its present,
 *   it is named apart. A live edge that has not reported counts as running nothing.
 * - Counts (multi-edge-counts.ts) and conditions (multi-edge-conditions.ts) over the live edges;
 *   a Pod's phase and containers (multi-edge-pod.ts).
 * - A problem an edge's agent reports (the copy cannot be applied there) is a failure kube's tools
 *   stop on: Progressing=False ProgressDeadlineExceeded for a Deployment (`kubectl rollout status`
 *   exits non-zero on that reason), ReplicaFailure=True for a ReplicaSet, Failed=True for a Job,
 *   Ready=False for a Pod, each with the agent's reason and message.
 * - `observedGeneration` is the object's generation only once every selected edge, stale ones
 *   included, has reported on its current spec; until then it stays below it (the one written
 *   before if lower, else one less), so `kubectl rollout status` waits for the spec to be observed
 *   everywhere.
 * - The condition `edge.kcp.io/Aggregated` says how many edges the status is from and names the
 *   others: True (AllEdgesReported) when every selected edge is live and reported on the current
 *   spec, else False (StaleEdges, or EdgesNotReported). `from` is the short form
 *   (`2/3 (1 stale)`), for the EDGES column.
 * Pure: the same reports, previous status and time give the same status.
 */
import { conditionFor } from '../kube/conditions.ts'
import type { JsonObject } from '../kube/types.ts'
import { conditionsOf, mergeConditions } from './multi-edge-conditions.ts'
import { aggregateCounts, type CountedKind } from './multi-edge-counts.ts'
import { aggregateContainers, aggregatePhase } from './multi-edge-pod.ts'

export const AGGREGATED_KINDS = [
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'Pod',
] as const
export type AggregatedKind = (typeof AGGREGATED_KINDS)[number]

export const isAggregatedKind = (kind: string): kind is AggregatedKind =>
  (AGGREGATED_KINDS as readonly string[]).includes(kind)

/** The condition saying which edges the status is aggregated from. */
export const AGGREGATED_CONDITION = 'edge.kcp.io/Aggregated'

/** What one selected edge says of the object's copy there. */
export type EdgeReport = {
  /** The edge's SyncTarget name. */
  edge: string
  /** Its agent is reporting (liveness.ts). */
  live: boolean
  /** The copy's spec as sent there (a customization may change it). */
  spec?: JsonObject
  /** The edge's latest reported status of the copy, whatever generation it is for. */
  status?: JsonObject
  /** It has reported on the copy of the object's current spec (a status or a problem). */
  current: boolean
  /** A problem its agent reported with the copy. */
  problem?: { reason: string; message: string }
}

export type MultiEdgeInput = {
  kind: AggregatedKind
  generation: number
  /** The object's spec in the center. */
  spec: JsonObject
  /** Every selected edge, in destination order. */
  edges: readonly EdgeReport[]
  /** The object's status now. */
  previous?: JsonObject
  /** The time a changed condition says it changed at (RFC 3339). */
  now: string
}

export type MultiEdgeStatus = { status: JsonObject; from: string }

/** The condition a problem at an edge stands for, for kinds whose tools stop on one. */
function problemCondition(kind: AggregatedKind, p: NonNullable<EdgeReport['problem']>) {
  const message = `${p.reason}: ${p.message}`
  if (kind === 'Deployment')
    return { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message }
  if (kind === 'ReplicaSet')
    return { type: 'ReplicaFailure', status: 'True', reason: p.reason, message: p.message }
  if (kind === 'Job')
    return { type: 'Failed', status: 'True', reason: p.reason, message: p.message }
  if (kind === 'Pod')
    return { type: 'Ready', status: 'False', reason: p.reason, message: p.message }
  return undefined
}

function edgeConditions(kind: AggregatedKind, e: EdgeReport): JsonObject[] {
  const own = conditionsOf(e.status)
  const failed = e.problem ? problemCondition(kind, e.problem) : undefined
  return failed ? [...own.filter((c) => c.type !== failed.type), failed] : own
}

const names = (list: readonly string[]) =>
  list.length <= 5 ? list.join(', ') : `${list.slice(0, 5).join(', ')} and ${list.length - 5} more`

function aggregatedCondition(input: MultiEdgeInput) {
  const { edges, generation } = input
  const from = edges.filter((e) => e.live && e.current)
  const stale = edges.filter((e) => !e.live)
  const behind = edges.filter((e) => e.live && !e.current)
  const failing = edges.filter((e) => e.live && e.problem)
  const parts = [
    `status of ${from.length} of ${edges.length} edges${from.length > 0 ? `: ${names(from.map((e) => e.edge))}` : ''}`,
  ]
  if (stale.length > 0) parts.push(`stale, not counted: ${names(stale.map((e) => e.edge))}`)
  if (behind.length > 0)
    parts.push(`not reported on generation ${generation} yet: ${names(behind.map((e) => e.edge))}`)
  if (failing.length > 0)
    parts.push(
      `problems: ${names(failing.map((e) => `${e.edge} (${e.problem?.reason ?? 'Failed'})`))}`
    )
  const status = stale.length + behind.length === 0 ? 'True' : 'False'
  const reason =
    status === 'True' ? 'AllEdgesReported' : stale.length > 0 ? 'StaleEdges' : 'EdgesNotReported'
  const short = `${from.length}/${edges.length}${stale.length > 0 ? ` (${stale.length} stale)` : ''}`
  const want = { status, reason, message: parts.join('; ') } as const
  const condition = conditionFor(conditionsOf(input.previous), AGGREGATED_CONDITION, want, {
    generation,
    now: input.now,
  })
  return { condition, from: short }
}

function observedGeneration(input: MultiEdgeInput): number {
  const { generation, edges, previous } = input
  if (edges.every((e) => e.current)) return generation
  const before = previous?.observedGeneration
  return typeof before === 'number' && before < generation ? before : generation - 1
}

export function multiEdgeStatus(input: MultiEdgeInput): MultiEdgeStatus {
  const { kind } = input
  const live = input.edges.filter((e) => e.live)
  const conditions = mergeConditions(
    live.map((e) => ({ edge: e.edge, conditions: edgeConditions(kind, e) }))
  )
  const aggregated = aggregatedCondition(input)
  const all = [...conditions, aggregated.condition]
  if (kind === 'Pod') {
    const statuses = live.map((e) => e.status)
    const status: JsonObject = { phase: aggregatePhase(statuses), conditions: all }
    const containers = aggregateContainers(statuses)
    if (containers.length > 0) status.containerStatuses = containers
    return { status, from: aggregated.from }
  }
  const generation = observedGeneration(input)
  const counts = aggregateCounts(kind as CountedKind, input.spec, live)
  const status: JsonObject = {
    ...(generation > 0 ? { observedGeneration: generation } : {}),
    ...counts,
    conditions: all,
  }
  return { status, from: aggregated.from }
}
