/**
 * The center's `Retry-After` (RFC 9110 §10.2.3) on a 429 or 503 answer: delay-seconds or an
 * HTTP-date, read into milliseconds from now (a date in the past is 0; anything else, or a delay
 * over RETRY_AFTER_MAX_MS, is capped or ignored). The center client notes each one it meets
 * (`retryAfterMemory().note`), and the poll loops wait at least that long before their next
 * request — at least a first failure's backoff (`take` hands the last one over once).
 */

/** The longest wait a Retry-After can ask of an agent (an hour). */
export const RETRY_AFTER_MAX_MS = 3_600_000

/** Milliseconds a Retry-After value asks for at `nowMs`, or undefined when it is unreadable. */
export function parseRetryAfter(
  value: string | null | undefined,
  nowMs: number
): number | undefined {
  if (!value) return undefined
  const text = value.trim()
  if (/^\d{1,10}$/.test(text)) return Math.min(Number(text) * 1000, RETRY_AFTER_MAX_MS)
  // An IMF-fixdate (or the obsolete forms Date.parse reads); digits alone were handled above.
  if (!/^[A-Za-z]{3},? /.test(text)) return undefined
  const at = Date.parse(text)
  if (Number.isNaN(at)) return undefined
  return Math.min(Math.max(0, at - nowMs), RETRY_AFTER_MAX_MS)
}

/** The Retry-After of an answer that may carry one (429, 503), in ms; else undefined. */
export function retryAfterOf(res: Response, nowMs: number): number | undefined {
  if (res.status !== 429 && res.status !== 503) return undefined
  return parseRetryAfter(res.headers.get('retry-after'), nowMs)
}

export type RetryAfterMemory = {
  /** Remembers the wait an answer asked for. */
  note(ms: number): void
  /** The last wait asked since the previous take, once. */
  take(): number | undefined
}

export function retryAfterMemory(): RetryAfterMemory {
  let last: number | undefined
  return {
    note(ms) {
      last = ms
    },
    take() {
      const ms = last
      last = undefined
      return ms
    },
  }
}
