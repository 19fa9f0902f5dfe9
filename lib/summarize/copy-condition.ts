/**
 * Where one selected object stands at one destination, from the destination's mailbox (the
 * manifest entry of its copy, the copy's state with what the edge reported, the copy's body) and
 * whether the destination's agent is live (liveness.ts). In order: a destination that is not live
 * is `stale` whatever its last report said (a silent edge is not counted as healthy); a copy not in
 * the mailbox yet, one without a state of its own (same uid) or whose report reflects an older
 * generation of the copy is `pending`; a reported problem is `failed`; a report for the current
 * generation is `ready` or `applied` by the kind's readiness (readiness.ts, which may also say
 * `failed`). A copy whose manifest entry is a tombstone (`removing`: leaving the destination,
 * waiting for the edge to confirm it gone) is `removing`, once the destination is live (a silent
 * edge will not confirm anything, so it stays `stale`). The `reported` object (the copy's body with the
 * reported status) is given for current reports, for Summarizers and the singleton status return.
 */
import type { KubeObject } from '../kube/types.ts'
import type { ManifestEntry, StoredCopyState } from '../store/projection-types.ts'
import { readinessOf } from './readiness.ts'

export const COPY_STATES = ['pending', 'applied', 'ready', 'failed', 'removing', 'stale'] as const
export type CopyStateName = (typeof COPY_STATES)[number]

export type CopyCondition = {
  state: CopyStateName
  /** Why it is not ready (a CamelCase reason), for the broken list. */
  reason?: string
  message?: string
  /** The copy as the edge reports it: body plus `.status` (current reports only). */
  reported?: KubeObject
}

export type CopyFacts = {
  /** The destination's agent sent a heartbeat recently. */
  live: boolean
  /** When it did last (epoch ms), for the message; undefined when never. */
  beatAt?: number
  entry?: ManifestEntry
  state?: StoredCopyState
  body?: KubeObject
}

function staleMessage(beatAt: number | undefined): string {
  return beatAt === undefined
    ? 'the edge agent has not reported yet'
    : `no heartbeat from the edge agent since ${new Date(beatAt).toISOString()}`
}

export function copyCondition(f: CopyFacts): CopyCondition {
  if (!f.live)
    return { state: 'stale', reason: 'StaleDestination', message: staleMessage(f.beatAt) }
  const { entry, state } = f
  if (!entry) return { state: 'pending', reason: 'NotInMailbox' }
  if (entry.removing) return { state: 'removing', reason: 'Removing' }
  if (!state || state.uid !== entry.uid || state.gone)
    return { state: 'pending', reason: 'NotReported' }
  if (state.problem) {
    return { state: 'failed', reason: state.problem.reason, message: state.problem.message }
  }
  if ((state.observedGeneration ?? 0) < entry.generation) {
    return { state: 'pending', reason: 'OlderGeneration' }
  }
  const body = f.body ?? { apiVersion: '', kind: '', metadata: {} }
  const reported: KubeObject = { ...body, status: state.status }
  const readiness = readinessOf(body.kind, body, state.status)
  if (readiness.kind === 'ready') return { state: 'ready', reported }
  if (readiness.kind === 'failed') {
    return { state: 'failed', reason: readiness.reason, message: readiness.message, reported }
  }
  return { state: 'applied', reason: 'NotReady', message: readiness.message, reported }
}

/** Whether the object runs there: applied or ready (the executing count). */
export const isExecuting = (c: CopyCondition) => c.state === 'applied' || c.state === 'ready'
