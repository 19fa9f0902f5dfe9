/**
 * The per-token limiter (lib/quota/token-limiter.ts) under an injected clock: the bounds of
 * requests and watches in flight per key, a release given back once only, the rate bucket's
 * refill and the Retry-After it answers, keys independent of each other; the watch events a token
 * is charged, the wait past its event bucket, and the bucket's refill.
 */
import { describe, expect, it } from 'vitest'
import { createTokenLimiter, type TokenLimits } from '../../../lib/quota/token-limiter.ts'

const events = { eventsPerSecond: 1000, eventBurst: 2000 }
const limits: TokenLimits = { requests: 2, watches: 3, ratePerSecond: 10, burst: 20, ...events }

function limiter(l: TokenLimits = limits) {
  let now = 1_000_000
  return { l: createTokenLimiter(l, () => now), advance: (ms: number) => (now += ms) }
}

const admitted = (a: ReturnType<ReturnType<typeof createTokenLimiter>['admit']>) => {
  if (!a.ok) throw new Error(`refused: ${a.bound}`)
  return a
}

describe('the token limiter', () => {
  it('bounds the requests in flight per key and gives a seat back once', () => {
    const { l } = limiter()
    const one = admitted(l.admit('a', false))
    admitted(l.admit('a', false))
    expect(l.admit('a', false)).toEqual({ ok: false, bound: 'requests', retryAfterSeconds: 1 })
    expect(l.admit('b', false).ok).toBe(true)
    one.release()
    one.release()
    expect(l.inFlight('a')).toEqual({ requests: 1, watches: 0 })
    expect(l.admit('a', false).ok).toBe(true)
    expect(l.admit('a', false).ok).toBe(false)
  })

  it('bounds the watches apart from the requests', () => {
    const { l } = limiter()
    const watches = [0, 1, 2].map(() => admitted(l.admit('a', true)))
    expect(l.admit('a', true)).toEqual({ ok: false, bound: 'watches', retryAfterSeconds: 1 })
    expect(l.admit('a', false).ok).toBe(true)
    watches[0]?.release()
    expect(l.admit('a', true).ok).toBe(true)
    expect(l.inFlight('a')).toEqual({ requests: 1, watches: 3 })
  })

  it('bounds the rate with a bucket that refills with the clock', () => {
    const { l, advance } = limiter({
      requests: 100,
      watches: 100,
      ratePerSecond: 2,
      burst: 4,
      ...events,
    })
    for (let i = 0; i < 4; i++) admitted(l.admit('a', false)).release()
    expect(l.admit('a', false)).toEqual({ ok: false, bound: 'rate', retryAfterSeconds: 1 })
    advance(499)
    expect(l.admit('a', false).ok).toBe(false)
    advance(1)
    admitted(l.admit('a', false)).release()
    expect(l.admit('a', false).ok).toBe(false)
    advance(60_000)
    for (let i = 0; i < 4; i++) admitted(l.admit('a', false)).release()
    expect(l.admit('a', false).ok).toBe(false)
  })

  it('answers a Retry-After as long as the bucket takes to hold one again', () => {
    const { l } = limiter({ requests: 100, watches: 100, ratePerSecond: 0.25, burst: 1, ...events })
    admitted(l.admit('a', false)).release()
    expect(l.admit('a', false)).toEqual({ ok: false, bound: 'rate', retryAfterSeconds: 4 })
  })

  it("makes a token's watches wait once they took more events than its share, per token", () => {
    const { l, advance } = limiter({ ...limits, eventsPerSecond: 100, eventBurst: 200 })
    expect(l.charge('a', 150)).toBe(0)
    expect(l.charge('a', 50)).toBe(0)
    // 50 events past the bucket at 100 per second: half a second
    expect(l.charge('a', 50)).toBe(500)
    expect(l.charge('b', 200)).toBe(0)
    expect(l.charge('a', 0)).toBe(0)
    advance(1500) // refills 150: 100 in the bucket again
    expect(l.charge('a', 100)).toBe(0)
    expect(l.charge('a', 10)).toBe(100)
  })
})
