/**
 * How long the agent waits before its next poll. After a success: the poll interval with ±10%
 * jitter, so a thousand agents started together spread out. After consecutive failures (center
 * unreachable or answering an error): exponential backoff from the poll interval, doubling per
 * failure up to a cap (8 × the interval by default), with "equal jitter" (half fixed, half
 * random), as the AWS backoff advice describes. `random` is injected for tests.
 */

/** The share of the interval a successful poll's wait may move either way. */
export const POLL_JITTER = 0.1

export type BackoffOptions = { intervalMs: number; capMs?: number; random: () => number }

export function delayAfter(failures: number, o: BackoffOptions): number {
  if (failures <= 0)
    return Math.round(o.intervalMs * (1 - POLL_JITTER + 2 * POLL_JITTER * o.random()))
  const cap = o.capMs ?? o.intervalMs * 8
  const raw = Math.min(cap, o.intervalMs * 2 ** Math.min(failures - 1, 30))
  return Math.round(raw / 2 + (raw / 2) * o.random())
}
