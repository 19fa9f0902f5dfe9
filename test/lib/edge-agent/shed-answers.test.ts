/**
 * How the agent takes a center that sheds it (functions/edge-api/admission.ts: 429 with a jittered
 * Retry-After, storm control): a shed heartbeat is sent again by the next poll, which waits the
 * Retry-After asked (never less than the backoff), so a busy center's shed does not let the lease
 * go stale until the next minute's beat; a shed held poll is a failure with backoff at least the
 * Retry-After, then a plain poll and holding again — never "the center does not hold", also when
 * the hold was shed while an interval poll ran. Real agent and center client over the fake center
 * (fake-center.ts), shed answers injected through the client's fetch; sleeps recorded, not slept.
 */
import { describe, expect, it } from 'vitest'
import type { Report } from '../../../lib/edge/protocol.ts'
import { createCenterClient, type HeldAnswer } from '../../../lib/edge-agent/center-client.ts'
import { runHeldLoop } from '../../../lib/edge-agent/held-loop.ts'
import { runPollLoop } from '../../../lib/edge-agent/poll-loop.ts'
import { pollResult } from '../../../lib/edge-agent/poll-result.ts'
import { retryAfterMemory } from '../../../lib/edge-agent/retry-after.ts'
import { createLogger, silentLogger } from '../../../lib/log.ts'
import { RemoteError } from '../../../lib/remote/remote-error.ts'
import { CENTER_TOKEN } from './fake-center.ts'
import { agentBench, namespace, nsRef } from './fixture.ts'

const bench = agentBench('mb-shed')

/** The center's shed answer, as functions/edge-api/admission.ts sends it. */
const shedAnswer = (seconds: string) =>
  new Response(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 429 }), {
    status: 429,
    headers: { 'content-type': 'application/json', 'retry-after': seconds },
  })

describe('a shed heartbeat', () => {
  it('goes again with the next poll, after the Retry-After asked', async () => {
    bench.center.put(nsRef('shed1'), namespace('shed1'))
    const retry = retryAfterMemory()
    let shedReports = 1
    const client = createCenterClient({
      baseUrl: bench.center.url,
      mailbox: bench.center.mailbox,
      token: async () => CENTER_TOKEN,
      onRetryAfter: retry.note,
      fetch: async (url, init) => {
        if (url.endsWith('/reports') && shedReports-- > 0) return shedAnswer('9')
        return fetch(url, init)
      },
    })
    const agent = await bench.agent({ center: client })
    const stop = new AbortController()
    const delays: number[] = []
    const results: boolean[] = []
    await runPollLoop({
      poll: async () => {
        const r = await agent.poll()
        results.push(r.ok)
        return r
      },
      intervalMs: 100,
      random: () => 0.5,
      retryAfterMs: retry.take,
      sleep: async (ms) => {
        delays.push(ms)
        if (delays.length >= 2) stop.abort()
      },
      signal: stop.signal,
      log: silentLogger,
    })
    expect(results).toEqual([false, true])
    // The backoff of one failure is 75 ms here: the shed's 9 s is what the agent waits.
    expect(delays[0]).toBe(9000)
    const beats = bench.center.reports.filter((r: Report) => r.heartbeat)
    expect(beats).toHaveLength(1)
  })
})

type Hold = { resolve: (a: HeldAnswer) => void; reject: (e: unknown) => void }

/** A held loop over fakes: `hold` hands each held request to the test to answer. */
function heldLoop(o: { onHold: (h: Hold, n: number) => void; onPoll?: (n: number) => void }) {
  const retry = retryAfterMemory()
  const stop = new AbortController()
  const delays: number[] = []
  const lines: Record<string, unknown>[] = []
  let holds = 0
  let polls = 0
  const loop = runHeldLoop({
    poll: async () => {
      polls++
      o.onPoll?.(polls)
      return pollResult()
    },
    hold: (_v, h) =>
      new Promise<HeldAnswer>((resolve, reject) => {
        holds++
        h.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true })
        o.onHold({ resolve, reject }, holds)
      }),
    version: () => 1,
    holdSeconds: 30,
    intervalMs: 100,
    random: () => 0.5,
    now: () => 1_000_000 + delays.reduce((a, b) => a + b, 0),
    retryAfterMs: retry.take,
    // A macrotask: a held answer already given settles first.
    sleep: (ms) =>
      new Promise<void>((r) => {
        delays.push(ms)
        setImmediate(r)
      }),
    signal: stop.signal,
    log: createLogger({ level: 'debug', sink: (l) => lines.push(JSON.parse(l)) }),
  })
  const shed = (h: Hold, ms: number) => {
    retry.note(ms)
    h.reject(new RemoteError(429, 'GET desired (held): HTTP 429'))
  }
  return { loop, stop, delays, lines, shed, counts: () => ({ holds, polls }) }
}

describe('a shed held poll', () => {
  it('is a failure that waits the Retry-After, then a plain poll, then holds again', async () => {
    const run = heldLoop({
      onHold: (h, n) => {
        if (n === 1) queueMicrotask(() => run.shed(h, 12_000))
        else run.stop.abort()
      },
    })
    await run.loop
    expect(run.delays).toContain(12_000)
    expect(run.counts()).toEqual({ holds: 2, polls: 2 })
    expect(run.lines.some((l) => String(l.msg).includes('does not hold'))).toBe(false)
    expect(run.lines.some((l) => l.msg === 'poll failed')).toBe(true)
  })

  it('keeps the Retry-After of a hold shed while an interval poll ran', async () => {
    let first: Hold | undefined
    const run = heldLoop({
      onHold: (h, n) => {
        if (n === 1) first = h
        else run.stop.abort()
      },
      // Poll 1 is the plain one before holding; poll 2 the first interval poll of the hold.
      onPoll: (n) => {
        if (n === 2 && first) run.shed(first, 15_000)
      },
    })
    await run.loop
    expect(run.delays).toContain(15_000)
    expect(run.counts()).toEqual({ holds: 2, polls: 3 })
  })
})
