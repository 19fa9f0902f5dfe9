/**
 * One poll's report, batched: the status reports that changed, upsync applies and deletes, the
 * removal confirmations not accepted yet (removals.ts), the problem set when it changed since the last accepted report (and again with every heartbeat),
 * and a heartbeat at most once a minute (`heartbeatMs`: the agent's --heartbeat-interval, for a
 * center configured with a shorter staleness threshold). Nothing to say → no report at all. Each list is capped at
 * the protocol's limit, and the whole report at BODY_BUDGET characters of JSON (the center reads
 * at most 3 MiB): problems and deletes are counted first, then statuses and upsync bodies are
 * taken while they fit; what does not fit is not recorded as reported and goes next poll.
 * `acceptReport` records what the center accepted (report-state.ts). A rejected item (its ref
 * possibly partial: the fields it names must match) stays unrecorded and is held back until its
 * content changes or the next heartbeat, so an item the center will never take (say, a kind the
 * mailbox does not serve) costs one attempt a minute, not one per poll. The problem set counts as
 * sent even when some problems were rejected: it goes again with the next heartbeat. The keys
 * with problems are remembered: when one's problem is gone, its status is sent again, which is
 * what clears a problem on the center's copy.
 */
import {
  HEARTBEAT_MS,
  type ObjectRef,
  type Problem,
  type Report,
  type ReportResult,
} from '../edge/protocol.ts'
import { hashOf, refKey } from './refs.ts'
import type { RemovedItem } from './removals.ts'
import type { ReportState } from './report-state.ts'
import type { StatusItem } from './status-collector.ts'
import type { UpsyncChanges, UpsyncItem } from './upsync-collector.ts'

export const BODY_BUDGET = 2 * 1024 * 1024
const CAP = 1000

export type ReportPlan = {
  report: Report
  statuses: StatusItem[]
  upsyncApply: UpsyncItem[]
  upsyncDelete: UpsyncChanges['delete']
  removed: RemovedItem[]
  problemsHash: string
  problemsSent: boolean
  /** Items left out because they alone exceed the budget. */
  oversized: string[]
}

export type ReportInput = {
  statuses: readonly StatusItem[]
  upsync: UpsyncChanges
  problems: readonly Problem[]
  /** Tombstones the edge no longer has (removals.ts). */
  removed?: readonly RemovedItem[]
  state: ReportState
  nowMs: number
  /** The heartbeat period (default HEARTBEAT_MS, once a minute). */
  heartbeatMs?: number
}

const problemKey = (p: Problem) => `${refKey(p)}/${p.reason}`

/**
 * How `fitting` measures items (`size`) and names them (`key`); `budget` is shared between calls
 * and `oversized` collects the keys of items that alone exceed BODY_BUDGET.
 */
type Fit<T> = {
  size: (t: T) => number
  key: (t: T) => string
  budget: { left: number }
  oversized: string[]
}

/** Takes items in order while they fit in the shared budget; skips any that alone exceed it. */
function fitting<T>(items: readonly T[], fit: Fit<T>): T[] {
  const { size, key, budget, oversized } = fit
  const out: T[] = []
  for (const item of items) {
    if (out.length >= CAP) break
    const n = size(item)
    if (n > BODY_BUDGET) oversized.push(key(item))
    else if (n <= budget.left) {
      out.push(item)
      budget.left -= n
    }
  }
  return out
}

const jsonSize = (v: unknown) => JSON.stringify(v).length

export function planReport(i: ReportInput): ReportPlan | undefined {
  const problems = [...i.problems].sort((a, b) => (problemKey(a) < problemKey(b) ? -1 : 1))
  const problemsHash = problems.length > 0 ? hashOf(problems) : ''
  const heartbeat = i.nowMs - i.state.lastHeartbeatMs >= (i.heartbeatMs ?? HEARTBEAT_MS)
  const problemsSent = problems.length > 0 && (problemsHash !== i.state.problems || heartbeat)
  const held = (key: string, hash: string) => !heartbeat && i.state.rejected[key] === hash
  const sentProblems = problemsSent ? problems.slice(0, CAP) : []
  const upsyncDelete = i.upsync.delete.filter((d) => !held(`d:${d.key}`, '')).slice(0, CAP)
  const removed = (i.removed ?? []).filter((r) => !held(`r:${r.key}`, r.id)).slice(0, CAP)
  const budget = {
    left:
      BODY_BUDGET -
      jsonSize(sentProblems) -
      jsonSize(upsyncDelete.map((d) => d.ref)) -
      jsonSize(removed.map((r) => r.ref)),
  }
  const oversized: string[] = []
  const statuses = fitting(
    i.statuses.filter((s) => !held(`s:${s.key}`, s.hash)),
    { size: (s) => JSON.stringify(s.report).length, budget, oversized, key: (s) => s.key }
  )
  const upsyncApply = fitting(
    i.upsync.apply.filter((u) => !held(`u:${u.key}`, u.hash)),
    { size: (u) => JSON.stringify(u.body).length, budget, oversized, key: (u) => u.key }
  )
  const items = statuses.length + upsyncApply.length + upsyncDelete.length + removed.length
  const empty = items === 0 && !problemsSent
  if (empty && !heartbeat) return undefined
  return {
    report: {
      kind: 'Report',
      statuses: statuses.map((s) => s.report),
      upsync: { apply: upsyncApply.map((u) => u.body), delete: upsyncDelete.map((d) => d.ref) },
      problems: sentProblems,
      ...(removed.length > 0 ? { removed: removed.map((r) => r.ref) } : {}),
      heartbeat,
    },
    statuses,
    upsyncApply,
    upsyncDelete,
    removed,
    problemsHash,
    problemsSent,
    oversized,
  }
}

type Rejected = ReportResult['rejected'][number]['ref']

/** True when a rejected (possibly partial) ref names this object. */
const names = (r: Rejected, ref: ObjectRef) =>
  (Object.keys(r) as (keyof ObjectRef)[]).every((k) => r[k] === undefined || r[k] === ref[k])

/** The accepted removal confirmations after this report; rejected ones are held back. */
function acceptRemovals(
  state: ReportState,
  plan: ReportPlan,
  ok: (ref: ObjectRef) => boolean,
  rejected: (key: string, hash: string | undefined) => void
): string[] {
  const removed = new Set(state.removed ?? [])
  for (const r of plan.removed) {
    if (ok(r.ref)) removed.add(r.id)
    rejected(`r:${r.key}`, ok(r.ref) ? undefined : r.id)
  }
  return [...removed].sort()
}

export function acceptReport(
  state: ReportState,
  plan: ReportPlan,
  result: ReportResult,
  nowMs: number
): ReportState {
  const refs = result.rejected.map((r) => r.ref)
  const ok = (ref: ObjectRef) => !refs.some((r) => names(r, ref))
  const next: ReportState = {
    statuses: { ...state.statuses },
    upsynced: { ...state.upsynced },
    problems: state.problems,
    problemKeys: state.problemKeys,
    lastHeartbeatMs: plan.report.heartbeat ? nowMs : state.lastHeartbeatMs,
    // A heartbeat report carried every held item again: what it rejects is the whole set now.
    rejected: plan.report.heartbeat ? {} : { ...state.rejected },
  }
  const rejected = (key: string, hash: string | undefined) => {
    if (hash === undefined) delete next.rejected[key]
    else next.rejected[key] = hash
  }
  for (const s of plan.statuses) {
    if (ok(s.report)) next.statuses[s.key] = s.hash
    rejected(`s:${s.key}`, ok(s.report) ? undefined : s.hash)
  }
  for (const u of plan.upsyncApply) {
    if (ok(u.ref)) next.upsynced[u.key] = { ref: u.ref, hash: u.hash }
    rejected(`u:${u.key}`, ok(u.ref) ? undefined : u.hash)
  }
  for (const d of plan.upsyncDelete) {
    if (ok(d.ref)) delete next.upsynced[d.key]
    rejected(`d:${d.key}`, ok(d.ref) ? undefined : '')
  }
  const removed = acceptRemovals(state, plan, ok, rejected)
  if (removed.length > 0) next.removed = removed
  if (plan.problemsSent || plan.problemsHash === '') {
    next.problems = plan.problemsHash
    next.problemKeys = [...new Set(plan.report.problems.map(refKey))].sort()
  }
  return next
}
