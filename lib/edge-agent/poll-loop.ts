/**
 * The agent's loop: poll, log the outcome as one JSON line (info when something happened, debug
 * for an idle poll, warn for a failure; a poll that throws counts as a failed one), wait — the poll interval after a success, exponential
 * backoff with jitter after consecutive failures (backoff.ts), or longer when the center's last
 * failed answer asked so (`retryAfterMs`: its Retry-After, retry-after.ts) — and again, until the
 * signal aborts. Sleep, randomness and the poll itself are injected so tests can watch the delays
 * grow. The held loop (held-loop.ts) shares its pieces.
 */
import { setTimeout as sleepFor } from 'node:timers/promises'
import type { Logger } from '../log.ts'
import { delayAfter } from './backoff.ts'
import { type PollResult, pollResult } from './poll-result.ts'

export type LoopDeps = {
  poll: () => Promise<PollResult>
  intervalMs: number
  capMs?: number
  random?: () => number
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
  signal: AbortSignal
  log: Logger
  /** The wait the center's last failed answer asked for (Retry-After), taken once. */
  retryAfterMs?: () => number | undefined
}

export async function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await sleepFor(ms, undefined, { signal })
  } catch {
    // aborted: the loop checks the signal
  }
}

export function logPoll(log: Logger, r: PollResult, nextPollMs?: number): void {
  const fields = { ...r, ...(nextPollMs !== undefined ? { nextPollMs } : {}) }
  if (!r.ok) log.warn('poll failed', fields)
  else if (r.outcome === 'unchanged' && !r.reported && r.problems === 0) log.debug('poll', fields)
  else log.info('poll', fields)
}

/** A poll that threw (say, the state folder is not writable): a failure like any other. */
export function failedPoll(e: unknown): PollResult {
  return pollResult({
    outcome: 'failed',
    ok: false,
    error: e instanceof Error ? e.message : String(e),
  })
}

/**
 * The wait before the next poll after `failures` failures in a row (0: a success): the backoff;
 * or, when the last failure was the center answering with a Retry-After (429/503: shed, busy),
 * what it asked, and never less than a first failure's backoff. An answer that names its wait is
 * the center up and choosing when to hear from the agent again, not an outage: the backoff the
 * failures before it escalated to would keep an agent that was shed once after an outage away
 * for a whole cap (8 intervals) more, long after the center asked it back.
 */
export function nextDelay(
  d: Pick<LoopDeps, 'intervalMs' | 'capMs' | 'retryAfterMs'>,
  failures: number,
  random: () => number
): number {
  const backoff = (n: number) =>
    delayAfter(n, {
      intervalMs: d.intervalMs,
      random,
      ...(d.capMs !== undefined ? { capMs: d.capMs } : {}),
    })
  // Taken after every poll, so a wait asked long ago never delays a later failure's retry.
  const asked = d.retryAfterMs?.()
  if (failures <= 0) return backoff(0)
  return asked === undefined ? backoff(failures) : Math.max(backoff(1), asked)
}

export async function runPollLoop(d: LoopDeps): Promise<void> {
  const sleep = d.sleep ?? defaultSleep
  const random = d.random ?? Math.random
  let failures = 0
  while (!d.signal.aborted) {
    const r = await d.poll().catch((e: unknown) => failedPoll(e))
    failures = r.ok ? 0 : failures + 1
    const delay = nextDelay(d, failures, random)
    logPoll(d.log, r, delay)
    if (d.signal.aborted) break
    await sleep(delay, d.signal)
  }
}
