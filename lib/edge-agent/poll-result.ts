/**
 * What one poll of the agent (agent.ts) did: its outcome and counts, which the loops (poll-loop.ts,
 * held-loop.ts) log and judge, the loop's health (agent-health.ts) and metrics (agent-metrics.ts)
 * count. Its own unit so that the loops and their tests need not load the agent.
 */

export type PollOutcome = 'applied' | 'unchanged' | 'offline' | 'center-error' | 'failed'

export type PollResult = {
  outcome: PollOutcome
  ok: boolean
  version?: number
  created: number
  updated: number
  unchanged: number
  pruned: number
  problems: number
  statuses: number
  upsyncApply: number
  upsyncDelete: number
  /** Removal confirmations sent (tombstones the edge no longer has). */
  removed?: number
  reported: boolean
  durationMs: number
  error?: string
}

/** A poll's result: an unchanged, successful poll that did nothing, with `patch` on top. */
export const pollResult = (patch: Partial<PollResult> = {}): PollResult => ({
  outcome: 'unchanged',
  ok: true,
  created: 0,
  updated: 0,
  unchanged: 0,
  pruned: 0,
  problems: 0,
  statuses: 0,
  upsyncApply: 0,
  upsyncDelete: 0,
  reported: false,
  durationMs: 0,
  ...patch,
})
