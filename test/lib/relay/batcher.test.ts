import { describe, expect, it } from 'vitest'
import { type BatcherOptions, createBatcher, type KeyResult } from '../../../lib/relay/batcher.ts'
import { createFakeClock, settle } from './fake-clock.ts'

type Flushed = [string, string[]][]

function setup(over: Partial<BatcherOptions> & { failFirst?: number } = {}) {
  const clock = createFakeClock()
  const flushed: Flushed = []
  const attempts: Flushed = []
  let failures = over.failFirst ?? 0
  const batcher = createBatcher({
    delayMs: 100,
    maxKeys: 10,
    setTimer: clock.setTimer,
    random: () => 0.999999,
    backoff: { baseMs: 1000, maxMs: 8000 },
    flush: async (step, keys) => {
      attempts.push([step, keys])
      if (failures > 0) {
        failures -= 1
        throw new Error('hub unavailable')
      }
      flushed.push([step, keys])
    },
    ...over,
  })
  return { clock, batcher, flushed, attempts }
}

describe('createBatcher', () => {
  it('collects one step for delayMs and flushes its keys once, de-duplicated', async () => {
    const { clock, batcher, flushed } = setup()
    const results = [batcher.add('mailbox', 'a'), batcher.add('mailbox', 'b')]
    results.push(batcher.add('mailbox', 'a'))
    await clock.advance(99)
    expect(flushed).toEqual([])
    expect(batcher.pending()).toEqual({ mailbox: 2 })
    await clock.advance(1)
    expect(flushed).toEqual([['mailbox', ['a', 'b']]])
    expect(await Promise.all(results)).toEqual([true, true, true])
    expect(batcher.pending()).toEqual({})
  })

  it('starts no flush while held, then sends what collected together', async () => {
    const { clock, batcher, flushed } = setup({ maxKeys: 2 })
    const release = batcher.hold()
    const other = batcher.hold()
    const results = [batcher.add('translate', 'a'), batcher.add('translate', 'b')]
    results.push(batcher.add('translate', 'c'), batcher.add('mailbox', 'm'))
    await clock.advance(1000)
    expect(flushed).toEqual([])
    expect(batcher.pending()).toEqual({ translate: 3, mailbox: 1 })
    release()
    release() // a release counts once
    await clock.advance(1000)
    expect(flushed).toEqual([])
    other()
    await clock.advance(100)
    await clock.advance(100)
    expect(flushed.sort()).toEqual([
      ['mailbox', ['m']],
      ['translate', ['a', 'b']],
      ['translate', ['c']],
    ])
    expect(await Promise.all(results)).toEqual([true, true, true, true])
  })

  it('flushes each step separately', async () => {
    const { clock, batcher, flushed } = setup()
    void batcher.add('mailbox', 'm1')
    void batcher.add('where', 's/p')
    await clock.advance(100)
    expect(flushed.sort()).toEqual([
      ['mailbox', ['m1']],
      ['where', ['s/p']],
    ])
  })

  it('flushes at once when maxKeys are waiting, in chunks of maxKeys', async () => {
    const { clock, batcher, flushed } = setup({ maxKeys: 2 })
    for (const k of ['a', 'b', 'c', 'd', 'e']) void batcher.add('where', k)
    await clock.advance(0)
    expect(flushed).toEqual([
      ['where', ['a', 'b']],
      ['where', ['c', 'd']],
    ])
    await clock.advance(100)
    expect(flushed.at(-1)).toEqual(['where', ['e']])
  })

  it('retries a failed flush with backoff, keeping keys added meanwhile', async () => {
    const { clock, batcher, flushed, attempts } = setup({ failFirst: 2 })
    const a = batcher.add('mailbox', 'a')
    await clock.advance(100)
    expect(attempts).toEqual([['mailbox', ['a']]])
    expect(clock.pendingTimers()).toEqual([1000])
    const b = batcher.add('mailbox', 'b')
    const a2 = batcher.add('mailbox', 'a')
    await clock.advance(1000)
    expect(attempts.at(-1)).toEqual(['mailbox', ['a', 'b']])
    expect(clock.pendingTimers()).toEqual([2000])
    await clock.advance(2000)
    expect(flushed).toEqual([['mailbox', ['a', 'b']]])
    expect(await Promise.all([a, b, a2])).toEqual([true, true, true])
  })

  it('sends a key added during an in-flight flush again in the next flush', async () => {
    const clock = createFakeClock()
    const flushed: string[][] = []
    let release = () => {}
    const batcher = createBatcher({
      delayMs: 100,
      maxKeys: 10,
      setTimer: clock.setTimer,
      random: () => 0,
      flush: async (_step, keys) => {
        flushed.push(keys)
        if (flushed.length === 1) await new Promise<void>((r) => (release = r))
      },
    })
    void batcher.add('where', 'x')
    await clock.advance(100)
    const again = batcher.add('where', 'x')
    await clock.advance(500)
    expect(flushed).toEqual([['x']])
    release()
    await clock.advance(100)
    expect(flushed).toEqual([['x'], ['x']])
    expect(await again).toBe(true)
  })

  it('treats a flush that throws synchronously as a failure and retries it', async () => {
    const clock = createFakeClock()
    let calls = 0
    const batcher = createBatcher({
      delayMs: 10,
      maxKeys: 10,
      setTimer: clock.setTimer,
      random: () => 0,
      backoff: { baseMs: 100, maxMs: 100 },
      flush: (_step, _keys) => {
        calls += 1
        if (calls === 1) throw new Error('bad')
        return Promise.resolve()
      },
    })
    const done = batcher.add('mailbox', 'k')
    await clock.advance(10)
    await clock.advance(50)
    expect(await done).toBe(true)
    expect(calls).toBe(2)
  })

  it('drain flushes pending keys without waiting; later adds are refused', async () => {
    const { batcher, flushed } = setup()
    const a = batcher.add('mailbox', 'a')
    await batcher.drain()
    expect(flushed).toEqual([['mailbox', ['a']]])
    expect(await a).toBe(true)
    expect(await batcher.add('mailbox', 'b')).toBe(false)
    await settle()
    expect(flushed).toHaveLength(1)
  })

  it('drain gives up on a failing batch and reports its keys undelivered', async () => {
    const { batcher, attempts } = setup({ failFirst: 5 })
    const a = batcher.add('where', 'a')
    await batcher.drain()
    expect(attempts).toHaveLength(1)
    expect(await a).toBe(false)
    expect(batcher.pending()).toEqual({})
  })

  describe('per-key results', () => {
    /** A batcher whose flush answers from `answer(key, attempt)`; records every flush. */
    function answering(
      answer: (key: string, attempt: number) => KeyResult,
      over: Partial<BatcherOptions> = {}
    ) {
      const clock = createFakeClock()
      const flushed: string[][] = []
      const tries = new Map<string, number>()
      const batcher = createBatcher({
        delayMs: 10,
        maxKeys: 10,
        setTimer: clock.setTimer,
        now: clock.now,
        random: () => 0.999999,
        backoff: { baseMs: 100, maxMs: 1000 },
        maxKeyAttempts: 3,
        flush: async (_step, keys) => {
          flushed.push(keys)
          return keys.map((k) => {
            const n = (tries.get(k) ?? 0) + 1
            tries.set(k, n)
            return answer(k, n)
          })
        },
        ...over,
      })
      return { clock, batcher, flushed }
    }

    it('sends a failed key again after its own backoff, holding its callers until it succeeds', async () => {
      const { clock, batcher, flushed } = answering((key, n) => ({
        key,
        ok: key !== 'bad' || n >= 3,
      }))
      let done: boolean | undefined
      void batcher.add('translate', 'bad').then((d) => (done = d))
      const good = batcher.add('translate', 'good')
      await clock.advance(10)
      expect(flushed).toEqual([['bad', 'good']])
      expect(await good).toBe(true)
      expect(done).toBeUndefined()
      expect(batcher.delayed()).toEqual({ translate: 1 })
      expect(clock.pendingTimers()).toEqual([100])
      await clock.advance(110)
      expect(flushed).toEqual([['bad', 'good'], ['bad']])
      expect(clock.pendingTimers()).toEqual([200])
      await clock.advance(210)
      expect(flushed).toEqual([['bad', 'good'], ['bad'], ['bad']])
      expect(done).toBe(true)
      expect(batcher.delayed()).toEqual({})
    })

    it('gives up after maxKeyAttempts, counting the key as delivered', async () => {
      const { clock, batcher, flushed } = answering((key) => ({ key, ok: false, outcome: 'boom' }))
      const bad = batcher.add('translate', 'bad')
      await clock.advance(10)
      await clock.advance(110)
      await clock.advance(210)
      expect(flushed).toEqual([['bad'], ['bad'], ['bad']])
      expect(await bad).toBe(true)
      expect(clock.pendingTimers()).toEqual([])
      // The count starts afresh for a later event on the same key.
      void batcher.add('translate', 'bad')
      await clock.advance(10)
      expect(clock.pendingTimers()).toEqual([100])
    })

    it('sends a key again after requeueAfterMs, without holding its callers', async () => {
      const { clock, batcher, flushed } = answering((key, n) =>
        n === 1 ? { key, ok: true, requeueAfterMs: 5000 } : { key, ok: true }
      )
      const k = batcher.add('where', 'ws/p')
      await clock.advance(10)
      expect(await k).toBe(true)
      expect(clock.pendingTimers()).toEqual([5000])
      await clock.advance(4999)
      expect(flushed).toEqual([['ws/p']])
      await clock.advance(11)
      expect(flushed).toEqual([['ws/p'], ['ws/p']])
      expect(clock.pendingTimers()).toEqual([])
    })

    it('keeps the earlier of a retry and a requeue of the same key', async () => {
      const { clock, batcher } = answering((key, n) =>
        n === 1 ? { key, ok: true, requeueAfterMs: 5000 } : { key, ok: false }
      )
      void batcher.add('where', 'k')
      await clock.advance(10)
      expect(clock.pendingTimers()).toEqual([5000])
      void batcher.add('where', 'k')
      await clock.advance(10)
      expect(clock.pendingTimers()).toEqual([100])
    })

    it('treats keys missing from the results, and a flush answering nothing, as delivered', async () => {
      const clock = createFakeClock()
      const batcher = createBatcher({
        delayMs: 10,
        maxKeys: 10,
        setTimer: clock.setTimer,
        random: () => 0,
        flush: async (_step, keys) => (keys.includes('x') ? [] : undefined),
      })
      const x = batcher.add('mailbox', 'x')
      await clock.advance(10)
      const y = batcher.add('mailbox', 'y')
      await clock.advance(10)
      expect(await Promise.all([x, y])).toEqual([true, true])
      expect(clock.pendingTimers()).toEqual([])
    })

    it('drain drops delayed keys and reports their callers undelivered', async () => {
      const { clock, batcher, flushed } = answering((key) => ({ key, ok: false }))
      const bad = batcher.add('translate', 'bad')
      await clock.advance(10)
      await batcher.drain()
      expect(await bad).toBe(false)
      expect(batcher.delayed()).toEqual({})
      await clock.advance(10_000)
      expect(flushed).toEqual([['bad']])
    })
  })
})
