/**
 * One storm agent's passes (bench/storm-agent.ts), with the answers, the clock and randomness
 * injected: the heartbeat goes only after a successful poll and once it is due, failures back off
 * per the agent's own nextDelay, and a Retry-After longer than the backoff is waited out.
 */
import { describe, expect, it } from 'vitest'
import { createStormAgent } from '../../bench/storm-agent.ts'
import { type CountKey, failureKind } from '../../bench/storm-counts.ts'

const refused = () =>
  Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })

function agent(answers: (() => Response | Error)[], lastBeatMs = 0) {
  let now = 100_000
  const sent: string[] = []
  const counted: CountKey[] = []
  const a = createStormAgent(
    {
      send: async (kind) => {
        sent.push(kind)
        const next = answers.shift()?.()
        if (!next) throw new Error('no answer scripted')
        if (next instanceof Error) throw next
        return next
      },
      now: () => now,
      random: () => 0.5,
      intervalMs: 10_000,
      heartbeatMs: 60_000,
      count: (_, k) => counted.push(k),
    },
    lastBeatMs
  )
  return { a, sent, counted, tick: (ms: number) => (now += ms) }
}

const notModified = () => new Response(null, { status: 304 })
const accepted = () => new Response('{}', { status: 200 })

describe('a storm agent', () => {
  it('beats after a successful poll when the heartbeat is due, and not again within the period', async () => {
    const { a, sent, tick } = agent([notModified, accepted, notModified])
    expect(await a.pass()).toEqual({ ok: true, beat: true, delayMs: 10_000 })
    tick(10_000)
    expect(await a.pass()).toEqual({ ok: true, beat: false, delayMs: 10_000 })
    expect(sent).toEqual(['poll', 'beat', 'poll'])
  })

  it('backs off after failures (no heartbeat tried without a poll) and counts why', async () => {
    const { a, sent, counted } = agent([refused, refused, refused])
    const delays = [(await a.pass()).delayMs, (await a.pass()).delayMs, (await a.pass()).delayMs]
    // equal jitter at random 0.5: 3/4 of 10, 20, 40 s
    expect(delays).toEqual([7500, 15_000, 30_000])
    expect(sent).toEqual(['poll', 'poll', 'poll'])
    expect(a.failures()).toBe(3)
    expect(counted.filter((k) => k === 'refused')).toHaveLength(3)
  })

  it("waits the center's Retry-After when longer than the backoff, once", async () => {
    const busy = () => new Response('', { status: 503, headers: { 'retry-after': '45' } })
    const { a, counted } = agent([notModified, busy, refused])
    const first = await a.pass()
    expect(first).toEqual({ ok: false, beat: false, delayMs: 45_000 })
    expect(counted).toContain('retryAfter')
    expect(counted).toContain('s5xx')
    // the next failure backs off on its own again
    expect((await a.pass()).delayMs).toBe(15_000)
  })
})

describe('failureKind', () => {
  it('reads the socket code from the causes', () => {
    expect(failureKind(refused())).toBe('refused')
    expect(failureKind(new TypeError('fetch failed', { cause: { code: 'UND_ERR_SOCKET' } }))).toBe(
      'reset'
    )
    expect(failureKind(new DOMException('late', 'TimeoutError'))).toBe('timeout')
    expect(failureKind(new Error('something else'))).toBe('other')
  })
})
