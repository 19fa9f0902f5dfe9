/**
 * What the storm fleet (storm-fleet-run.ts) counts, per wall-clock second (epoch, so the parent
 * process can line the counts up with the outage it made): requests sent (polls and heartbeats
 * apart), answers by status class, and requests that got no answer by why — the connection
 * refused (no server listening), reset (the server ended it), timed out, or anything else.
 * `failureKind` reads that why from a fetch error (undici puts the socket's code in `cause`).
 * Pure, no I/O.
 */

export type FailureKind = 'refused' | 'reset' | 'timeout' | 'other'

export type CountKey =
  | 'polls'
  | 'beats'
  | 's2xx'
  | 's3xx'
  | 's4xx'
  | 's5xx'
  | 'retryAfter'
  | FailureKind

/** One second's counts; `at` is the second's start, epoch ms. */
export type SecondRow = { at: number } & Record<CountKey, number>

const KEYS: readonly CountKey[] = [
  'polls',
  'beats',
  's2xx',
  's3xx',
  's4xx',
  's5xx',
  'retryAfter',
  'refused',
  'reset',
  'timeout',
  'other',
]

export function emptyRow(at: number): SecondRow {
  const row = { at } as SecondRow
  for (const k of KEYS) row[k] = 0
  return row
}

/** Requests sent in a row (polls and heartbeats). */
export const sentIn = (r: SecondRow) => r.polls + r.beats

/** The answer's count key: its status class. */
export function statusKey(status: number): CountKey {
  if (status >= 500) return 's5xx'
  if (status >= 400) return 's4xx'
  if (status >= 300) return 's3xx'
  return 's2xx'
}

export type SecondCounts = {
  count(atMs: number, key: CountKey): void
  /** Every second that counted something, in order. */
  rows(): SecondRow[]
}

export function createSecondCounts(): SecondCounts {
  const bySecond = new Map<number, SecondRow>()
  return {
    count(atMs, key) {
      const at = Math.floor(atMs / 1000) * 1000
      let row = bySecond.get(at)
      if (!row) {
        row = emptyRow(at)
        bySecond.set(at, row)
      }
      row[key]++
    },
    rows: () => [...bySecond.values()].sort((a, b) => a.at - b.at),
  }
}

const RESET = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'])
const TIMEOUT = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT'])

/** Why a request got no answer, from the error fetch threw (its causes followed). */
export function failureKind(e: unknown): FailureKind {
  for (let at = e, depth = 0; at && depth < 5; depth++) {
    const { code, name, cause } = at as { code?: unknown; name?: unknown; cause?: unknown }
    if (code === 'ECONNREFUSED') return 'refused'
    if (typeof code === 'string' && RESET.has(code)) return 'reset'
    if (name === 'TimeoutError' || (typeof code === 'string' && TIMEOUT.has(code))) return 'timeout'
    at = cause
  }
  return 'other'
}
