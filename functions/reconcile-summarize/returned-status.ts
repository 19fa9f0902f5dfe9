/**
 * The status a workload object in the center carries back from its edges, and the annotation
 * saying where it is from (STATUS_FROM_ANNOTATION), for kinds with a status subresource
 * (Namespaces excepted: theirs is the center's own):
 * - One selected destination: the singleton return of KubeStellar v0.8
 *   (lib/summarize/singleton-status.ts) — the copy's reported status once that destination
 *   reported on it at the object's current spec (current-spec.ts), running it or failed by the
 *   kind's readiness (a Deployment past its progress deadline: what `kubectl rollout status`
 *   fails on), its observedGenerations stated as the object's; `1/1` then, else `0/1` and the
 *   status left as it was — but for a problem its agent reported with the copy at the current
 *   spec (ApplyFailed...), which for a kind the step aggregates is stated as the aggregate of
 *   that one edge states it (a Deployment's Progressing=False ProgressDeadlineExceeded).
 * - Several, of a kind whose readiness the step knows (Deployment, ReplicaSet, StatefulSet,
 *   DaemonSet, Job, Pod): the status aggregated over every selected edge
 *   (lib/summarize/multi-edge-status.ts), from each destination's latest report of its copy; the
 *   annotation is the aggregate's `from` (`2/3 (1 stale)`).
 * - Several, of any other kind: `not aggregated`; the singleton return still applies when exactly
 *   one of them runs it (applied or ready).
 * No selected destination: no annotation, and the status left as it was.
 */
import { timestamp } from '../../lib/kube/time.ts'
import type { JsonObject } from '../../lib/kube/types.ts'
import type { Destination } from '../../lib/placement/destinations.ts'
import type { SourceObject } from '../../lib/placement/types.ts'
import { isExecuting } from '../../lib/summarize/copy-condition.ts'
import {
  type AggregatedKind,
  type EdgeReport,
  isAggregatedKind,
  multiEdgeStatus,
} from '../../lib/summarize/multi-edge-status.ts'
import { singletonStatus } from '../../lib/summarize/singleton-status.ts'
import { currentSpecHash } from './current-spec.ts'
import type { Condition } from './object-writes.ts'
import type { Observations } from './observe.ts'

export const NOT_AGGREGATED = 'not aggregated'

export type StatusWant = { status?: JsonObject; statusFrom?: string }

export type StatusAsk = {
  o: SourceObject
  destinations: readonly Destination[]
  condition: Condition
  seen: Pick<Observations, 'facts'>
  nowMs: number
}

const isObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Whether the copy at `d` carries the object's current spec (`hash` undefined: customized). */
function specCurrent(ask: StatusAsk, d: Destination, hash: string | undefined): boolean {
  const entry = ask.seen.facts(ask.o, d).entry
  return !!entry && (hash === undefined || entry.specHash === hash)
}

/** The singleton return from `d`: what it reported on the current spec, if it did. */
function singleton(ask: StatusAsk, d: Destination, hash: string | undefined) {
  const reported = ask.condition(ask.o, d).reported
  if (!reported || !specCurrent(ask, d, hash)) return undefined
  return singletonStatus(reported, ask.o.object.metadata.generation)
}

/** For a kind not aggregated: the singleton return when exactly one destination runs it. */
function onlyRunning(ask: StatusAsk, hash: string | undefined): JsonObject | undefined {
  const running = ask.destinations.filter((d) => isExecuting(ask.condition(ask.o, d)))
  return running.length === 1 ? singleton(ask, running[0] as Destination, hash) : undefined
}

function reportOf(ask: StatusAsk, d: Destination, hash: string | undefined): EdgeReport {
  const facts = ask.seen.facts(ask.o, d)
  const { entry, state } = facts
  const live = ask.condition(ask.o, d).state !== 'stale'
  const own = !!entry && !!state && state.uid === entry.uid && !state.gone && !entry.removing
  const spec = isObject(facts.body?.spec) ? { spec: facts.body.spec } : {}
  if (!own || !entry || !state) return { edge: d.syncTargetName, live, current: false, ...spec }
  const reported = !!state.problem || (state.observedGeneration ?? 0) >= entry.generation
  return {
    edge: d.syncTargetName,
    live,
    current: reported && specCurrent(ask, d, hash),
    ...spec,
    ...(isObject(state.status) ? { status: state.status } : {}),
    ...(state.problem ? { problem: state.problem } : {}),
  }
}

/** What status `ask.o` should carry, given its kind has a status subresource. */
export async function statusWant(ask: StatusAsk): Promise<StatusWant> {
  const { o, destinations } = ask
  if ((o.group === '' && o.resource === 'namespaces') || destinations.length === 0) return {}
  const hash = await currentSpecHash(o)
  const kind = o.object.kind
  if (destinations.length === 1) {
    const only = destinations[0] as Destination
    const status = singleton(ask, only, hash)
    const stale = ask.condition(o, only).state === 'stale'
    const from = status ? '1/1' : stale ? '0/1 (1 stale)' : '0/1'
    if (status) return { status, statusFrom: from }
    // An agent's problem with the copy (it cannot be applied there) has no status of its own to
    // return: it is stated as the aggregate states it, a failure kube's tools stop on.
    const report = reportOf(ask, only, hash)
    if (!report.problem || !report.current || !report.live || !isAggregatedKind(kind))
      return { statusFrom: from }
    return { status: aggregated(ask, kind, [report]).status, statusFrom: from }
  }
  if (!isAggregatedKind(kind)) {
    const status = onlyRunning(ask, hash)
    return { ...(status ? { status } : {}), statusFrom: NOT_AGGREGATED }
  }
  const { status, from } = aggregated(
    ask,
    kind,
    destinations.map((d) => reportOf(ask, d, hash))
  )
  return { status, statusFrom: from }
}

function aggregated(ask: StatusAsk, kind: AggregatedKind, edges: EdgeReport[]) {
  const object = ask.o.object
  return multiEdgeStatus({
    kind,
    generation: object.metadata.generation ?? 0,
    spec: isObject(object.spec) ? object.spec : {},
    edges,
    ...(isObject(object.status) ? { previous: object.status } : {}),
    now: timestamp(new Date(ask.nowMs)),
  })
}
