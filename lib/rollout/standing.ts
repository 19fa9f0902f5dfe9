/**
 * Where an edge stands for a Rollout (docs/architecture/rollout.md, "Gates"), as the summarize
 * step records it per placement and mailbox and the rollout step's tally reads it: the lowest
 * revision stamped (lib/rollout/stamp.ts) among the Rollout's copies there and the worst state
 * of those copies — failed > stale > pending > ready, `applied` (running but not ready by its
 * kind's readiness: a Deployment with old replicas still serving, a Job not complete) and
 * `removing` counting pending (lib/summarize/copy-condition.ts) — with the first failure's reason
 * and message.
 * `addCopy` folds one copy in, `combine` folds the standings several placements recorded for
 * one edge, `standingAt` answers the gate's question for a revision. Pure.
 */
import type { CopyStateName } from '../summarize/copy-condition.ts'

export const STANDING_STATES = ['ready', 'pending', 'stale', 'failed'] as const
export type StandingState = (typeof STANDING_STATES)[number]

/** A failure's reason and message as kept (bounded: a standing page stays small). */
export const MAX_REASON = 100
export const MAX_MESSAGE = 240

export type Standing = {
  /** The lowest revision stamped among the Rollout's copies at the edge. */
  revision: number
  state: StandingState
  /** The first failure's (with state failed). */
  reason?: string
  message?: string
}

/** The standing state of one copy's condition. */
export function standingStateOf(state: CopyStateName): StandingState {
  // Applied is not ready: a new pod that cannot start leaves the Deployment applied (its old
  // replica serving) until its progress deadline says failed, and the gate must not pass it.
  if (state === 'applied' || state === 'removing') return 'pending'
  return state
}

const rank = (s: StandingState) => STANDING_STATES.indexOf(s)

/** `a` and `b` folded: the lower revision, the worse state, the first failure kept. */
export function combine(a: Standing | undefined, b: Standing): Standing {
  if (!a) return b
  const worse = rank(b.state) > rank(a.state) ? b : a
  const out: Standing = { revision: Math.min(a.revision, b.revision), state: worse.state }
  if (worse.reason !== undefined) out.reason = worse.reason
  if (worse.message !== undefined) out.message = worse.message
  return out
}

/** One copy at `revision` in `state`, with why it failed, folded into `into`. */
export function addCopy(
  into: Standing | undefined,
  revision: number,
  state: CopyStateName,
  why: { reason?: string; message?: string } = {}
): Standing {
  const s = standingStateOf(state)
  const copy: Standing = { revision, state: s }
  if (s === 'failed') {
    copy.reason = (why.reason ?? 'Failed').slice(0, MAX_REASON)
    if (why.message) copy.message = why.message.slice(0, MAX_MESSAGE)
  }
  return combine(into, copy)
}

/** What the gate counts for an edge at a revision (functions/reconcile-rollout/tally.ts). */
export type GateStanding =
  | { state: 'ready' | 'stale' | 'pending' }
  | { state: 'failed'; reason: string; message?: string }

/**
 * Where an edge of standing `s` stands at `revision`, while `inFlight` is the Rollout's newest:
 * stale when its agent is silent; ready when every copy is at `revision` or later and ready;
 * failed when every copy is at `revision` or later and one failed — a failure while some copy is
 * still older is not the new revision's, so the edge is still pending for it; pending otherwise
 * (no standing yet, a copy older or not ready). A standing above `inFlight` cannot be this
 * Rollout's (a deleted one of the same name left it): pending.
 */
export function standingAt(
  s: Standing | undefined,
  revision: number,
  inFlight: number
): GateStanding {
  if (!s) return { state: 'pending' }
  if (s.state === 'stale') return { state: 'stale' }
  if (s.revision > inFlight || s.revision < revision) return { state: 'pending' }
  if (s.state === 'ready') return { state: 'ready' }
  if (s.state === 'failed')
    return {
      state: 'failed',
      reason: s.reason ?? 'Failed',
      ...(s.message !== undefined ? { message: s.message } : {}),
    }
  return { state: 'pending' }
}
