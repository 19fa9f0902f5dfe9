/**
 * One simulated agent of the storm fleet (storm-fleet-run.ts), keeping the real agent's timing
 * rules by calling them: a pass polls the desired state (If-None-Match; 304 or 200 is a success)
 * and, when the last accepted heartbeat is HEARTBEAT_MS old or more, posts a heartbeat report —
 * as lib/edge-agent/report.ts decides it, after a successful poll only, the time noted being the
 * pass's (`acceptReport`). A failed request fails the pass, and the center's Retry-After on a 429
 * or 503 is noted as the center client notes it (lib/edge-agent/retry-after.ts). The wait before
 * the next pass is lib/edge-agent/poll-loop.ts `nextDelay`: jittered interval after a success,
 * capped exponential backoff after failures, or the Retry-After when longer. The request itself,
 * the clock, randomness and the counts are injected (tests drive it without a server or a clock).
 */
import { nextDelay } from '../lib/edge-agent/poll-loop.ts'
import { retryAfterMemory, retryAfterOf } from '../lib/edge-agent/retry-after.ts'
import { type CountKey, failureKind, statusKey } from './storm-counts.ts'

export type StormAgentDeps = {
  /** Sends the agent's poll or heartbeat; the answer, or throws when none came. */
  send(kind: 'poll' | 'beat'): Promise<Response>
  now(): number
  random(): number
  intervalMs: number
  heartbeatMs: number
  count(atMs: number, key: CountKey): void
}

export type PassResult = {
  /** The poll and, when due, the heartbeat succeeded. */
  ok: boolean
  /** A heartbeat was accepted in this pass. */
  beat: boolean
  /** The wait before the next pass (nextDelay). */
  delayMs: number
}

export type StormAgent = {
  pass(): Promise<PassResult>
  failures(): number
  /** The last accepted heartbeat's pass time, epoch ms. */
  lastBeatMs(): number
}

/** An agent whose last accepted heartbeat was at `lastBeatMs` (epoch ms). */
export function createStormAgent(d: StormAgentDeps, lastBeatMs: number): StormAgent {
  let failures = 0
  let lastBeat = lastBeatMs
  const memory = retryAfterMemory()

  /** One request; whether it was answered with one of `good`. */
  async function request(kind: 'poll' | 'beat', good: readonly number[]): Promise<boolean> {
    d.count(d.now(), kind === 'poll' ? 'polls' : 'beats')
    let res: Response
    try {
      res = await d.send(kind)
    } catch (e) {
      d.count(d.now(), failureKind(e))
      return false
    }
    const at = d.now()
    await res.arrayBuffer().catch(() => undefined)
    d.count(at, statusKey(res.status))
    const wait = retryAfterOf(res, at)
    if (wait !== undefined) {
      memory.note(wait)
      d.count(at, 'retryAfter')
    }
    return good.includes(res.status)
  }

  async function pass(): Promise<PassResult> {
    const startedAt = d.now()
    let ok = await request('poll', [200, 304])
    let beat = false
    if (ok && startedAt - lastBeat >= d.heartbeatMs) {
      ok = await request('beat', [200])
      if (ok) {
        lastBeat = startedAt
        beat = true
      }
    }
    failures = ok ? 0 : failures + 1
    const delayMs = nextDelay(
      { intervalMs: d.intervalMs, retryAfterMs: () => memory.take() },
      failures,
      d.random
    )
    return { ok, beat, delayMs }
  }

  return { pass, failures: () => failures, lastBeatMs: () => lastBeat }
}
