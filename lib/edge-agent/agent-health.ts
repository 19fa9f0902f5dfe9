/**
 * The edge agent's liveness and readiness, from its poll loop's progress (served on /healthz and
 * /readyz by lib/metrics/health-server.ts, probed by the Deployment the bootstrap renders):
 * - live while the loop moves: a poll started or finished within `stallMs` (default 8 × the poll
 *   interval, the backoff cap, plus 10 minutes for one slow poll). A hung poll fails it, so the
 *   kubelet restarts the container; an agent that cannot reach the center stays live (a restart
 *   would not help) and keeps backing off;
 * - ready once a poll finished and the last one succeeded (reached the center and applied); while
 *   polls fail the reason is the last poll's outcome and error, so `kubectl get pods` shows 0/1
 *   for an edge cut off from its center.
 * The clock is injected.
 */
import type { Check } from '../metrics/health-server.ts'
import type { PollResult } from './poll-result.ts'

export type PollHealthOptions = {
  intervalMs: number
  /** Longest quiet time of a live loop (default 8 × intervalMs + 10 min). */
  stallMs?: number
  now?: () => number
}

export type PollHealth = {
  started(): void
  finished(r: Pick<PollResult, 'ok' | 'outcome' | 'error'>): void
  live(): Check
  ready(): Check
}

const SLOW_POLL_MS = 10 * 60_000

export function createPollHealth(o: PollHealthOptions): PollHealth {
  const now = o.now ?? Date.now
  const stallMs = o.stallMs ?? 8 * o.intervalMs + SLOW_POLL_MS
  let lastProgress = now()
  let polling = false
  let last: Pick<PollResult, 'ok' | 'outcome' | 'error'> | undefined
  return {
    started() {
      polling = true
      lastProgress = now()
    },
    finished(r) {
      polling = false
      lastProgress = now()
      last = r
    },
    live() {
      const quiet = now() - lastProgress
      if (quiet <= stallMs) return { ok: true }
      const what = polling ? 'the current poll has been running' : 'no poll has started'
      return { ok: false, reason: `${what} for ${Math.round(quiet / 1000)} s` }
    },
    ready() {
      if (!last) return { ok: false, reason: 'no poll has finished yet' }
      if (last.ok) return { ok: true }
      const error = last.error ? `: ${last.error}` : ''
      return { ok: false, reason: `the last poll failed (${last.outcome})${error}`.slice(0, 500) }
    },
  }
}
