/**
 * Exponential backoff with jitter for the watch relay: attempt 1 waits about `baseMs`, each further
 * attempt doubles it up to `maxMs`, and the result is scaled into [50%, 100%] by an injected random
 * source so many relays restarting together do not retry in lockstep.
 */

export type BackoffPolicy = { baseMs: number; maxMs: number }

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 500, maxMs: 30_000 }

/** Delay before retry number `attempt` (1-based); `random` returns a number in [0, 1). */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number): number {
  const n = Math.max(1, Math.floor(attempt))
  const raw = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(n - 1, 30))
  const r = Math.min(1, Math.max(0, random()))
  return Math.round(raw * (0.5 + r / 2))
}
