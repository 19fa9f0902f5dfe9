/**
 * The agent's loop with held polls (lib/edge/protocol.ts, "Held polls"), its default: after a
 * successful poll it keeps one held desired-state request open at the center (`Prefer:
 * wait=<holdSeconds>`, naming the version it holds) and meanwhile runs a poll on the copy it holds
 * every interval, with the usual ±10 % jitter — drift correction and reports go on as in the plain
 * loop, nothing waits for the hold. When the held request answers:
 * - 200 (the mailbox moved): the answer is applied at once (one poll with it in hand, reported),
 *   and a new hold starts after a short jitter (up to a tenth of the interval), so a fleet-wide
 *   change does not bring every edge back at the same instant;
 * - 304 with `Preference-Applied` (the hold ended): a new hold starts, no poll;
 * - an answer without `Preference-Applied` (a center that does not hold, or holding is off): the
 *   answer is applied and the loop polls plainly every interval, trying a hold again after
 *   REPROBE_POLLS plain polls (the center may have been upgraded);
 * - a failure: as any failed poll, capped exponential backoff with jitter, or the center's
 *   Retry-After when it named one (poll-loop.ts `nextDelay`), then a plain poll, then holding again — so a hold the
 *   center shed (429 with Retry-After, functions/edge-api/admission.ts) comes back after the wait
 *   asked, never as "the center does not hold", even when it failed during an interval poll.
 * Holds start at least MIN_HOLD_GAP_MS apart, so a center that keeps answering at once cannot
 * make the agent spin. The abort signal ends the held request and the loop; each hold and each
 * interval's wait links its own signal to it and lets go when done (lib/linked-signal.ts), so an
 * agent that runs for months keeps nothing of its past holds.
 */
import { linkedSignal } from '../linked-signal.ts'
import type { Logger } from '../log.ts'
import type { DesiredAnswer, HeldAnswer, HoldOptions } from './center-client.ts'
import { defaultSleep, failedPoll, logPoll, nextDelay } from './poll-loop.ts'
import type { PollResult } from './poll-result.ts'

/** Plain polls after which an agent that fell back tries a held poll again. */
export const REPROBE_POLLS = 40
/** The least time between the starts of two held requests. */
export const MIN_HOLD_GAP_MS = 1000

export type HeldLoopDeps = {
  /** One poll; `given`: the center's answer in hand, not asked for (agent.ts). */
  poll: (given?: DesiredAnswer) => Promise<PollResult>
  /** The held request (center-client.ts `holdDesired`). */
  hold: (version: number, o: HoldOptions) => Promise<HeldAnswer>
  /** The version of the copy the agent holds (undefined before the first answer). */
  version: () => number | undefined
  holdSeconds: number
  intervalMs: number
  capMs?: number
  random?: () => number
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
  now?: () => number
  retryAfterMs?: () => number | undefined
  signal: AbortSignal
  log: Logger
}

type Held = { answer: HeldAnswer } | { error: unknown }

/** Sleeps `ms` unless `held` settles first; then the held outcome. */
async function sleepOrHeld(
  d: HeldLoopDeps,
  ms: number,
  held: Promise<Held>
): Promise<Held | undefined> {
  const woken = linkedSignal([d.signal])
  const slept = (d.sleep ?? defaultSleep)(ms, woken.signal).then(() => undefined)
  try {
    return await Promise.race([held, slept])
  } finally {
    woken.abort()
  }
}

/**
 * One held request for version `version`, with interval polls meanwhile, until it answers.
 * Returns the poll to judge next: the one that applied a held 200 or an old center's answer, a
 * failed one, or undefined to hold again (a 304 at the hold's end) or when stopped.
 */
async function holdOnce(
  d: HeldLoopDeps,
  version: number,
  fallBack: () => void
): Promise<PollResult | undefined> {
  const random = d.random ?? Math.random
  const request = linkedSignal([d.signal])
  let settled = false
  const held: Promise<Held> = d
    .hold(version, { waitSeconds: d.holdSeconds, signal: request.signal })
    .then(
      (answer) => ({ answer }),
      (error: unknown) => ({ error })
    )
    .finally(() => {
      settled = true
    })
  try {
    for (;;) {
      // A held answer that came while an interval poll ran is judged at once: taking a delay
      // first would drop the Retry-After of a shed hold before its failure's backoff reads it.
      const out = settled ? await held : await sleepOrHeld(d, nextDelay(d, 0, random), held)
      if (d.signal.aborted) return undefined
      if (out === undefined) {
        // The interval passed with the hold open: drift correction and reports, no request.
        const r = await d.poll({ kind: 'unchanged' }).catch(failedPoll)
        if (!r.ok) return r
        logPoll(d.log, r)
        continue
      }
      if ('error' in out) return failedPoll(out.error)
      const { heldSeconds, ...answer } = out.answer
      if (heldSeconds === undefined) fallBack()
      else if (answer.kind === 'unchanged') return undefined
      return await d.poll(answer).catch(failedPoll)
    }
  } finally {
    request.abort()
  }
}

type LoopState = { failures: number; plainLeft: number; lastHold: number }

/** After a failed poll, or while polling plainly: wait as the plain loop does, then poll. */
async function plainStep(d: HeldLoopDeps, st: LoopState, r: PollResult): Promise<PollResult> {
  const delay = nextDelay(d, st.failures, d.random ?? Math.random)
  logPoll(d.log, r, delay)
  if (r.ok && st.plainLeft > 0) st.plainLeft--
  await (d.sleep ?? defaultSleep)(delay, d.signal)
  if (d.signal.aborted) return r
  return d.poll().catch(failedPoll)
}

/** Before a hold: a little jitter after an applied answer, and the least gap between holds. */
async function beforeHold(d: HeldLoopDeps, st: LoopState, r: PollResult | undefined) {
  const sleep = d.sleep ?? defaultSleep
  const now = d.now ?? Date.now
  if (r) {
    logPoll(d.log, r)
    // Edges told of one change together do not all come back at the same instant.
    if (r.outcome === 'applied')
      await sleep(d.intervalMs * 0.1 * (d.random ?? Math.random)(), d.signal)
  }
  const gap = st.lastHold + MIN_HOLD_GAP_MS - now()
  if (gap > 0) await sleep(gap, d.signal)
  st.lastHold = now()
}

export async function runHeldLoop(d: HeldLoopDeps): Promise<void> {
  const st: LoopState = { failures: 0, plainLeft: 0, lastHold: Number.NEGATIVE_INFINITY }
  const fallBack = () => {
    if (st.plainLeft === 0)
      d.log.info('the center does not hold polls: polling every interval', {
        intervalMs: d.intervalMs,
      })
    st.plainLeft = REPROBE_POLLS
  }
  let r: PollResult | undefined = await d.poll().catch(failedPoll)
  while (!d.signal.aborted) {
    if (r) st.failures = r.ok ? 0 : st.failures + 1
    const version = d.version()
    if (r && (!r.ok || st.plainLeft > 0 || version === undefined)) {
      r = await plainStep(d, st, r)
      continue
    }
    await beforeHold(d, st, r)
    if (d.signal.aborted || version === undefined) break
    r = await holdOnce(d, d.version() ?? version, fallBack)
  }
}
