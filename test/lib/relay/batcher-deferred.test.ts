/**
 * Keys a hook deferred (it ran short of its invocation's budget) are sent again in the next flush,
 * ahead of keys that arrived meanwhile, their callers still waiting and no failed attempt counted;
 * a drain keeps flushing until they are delivered.
 */
import { describe, expect, it } from 'vitest'
import { createBatcher, type KeyResult } from '../../../lib/relay/batcher.ts'
import { createFakeClock } from './fake-clock.ts'

/** A hook that runs at most `perCall` keys per call and defers the rest. */
function setup(perCall: number) {
  const clock = createFakeClock()
  const calls: string[][] = []
  const batcher = createBatcher({
    delayMs: 100,
    maxKeys: 10,
    maxKeyAttempts: 1,
    setTimer: clock.setTimer,
    random: () => 0.5,
    flush: async (_step, keys): Promise<KeyResult[]> => {
      calls.push(keys)
      return [
        ...keys.slice(0, perCall).map((key) => ({ key, ok: true, outcome: 'done' })),
        ...keys.slice(perCall).map((key) => ({ key, ok: true, deferred: true })),
      ]
    },
  })
  return { clock, batcher, calls }
}

describe('deferred keys', () => {
  it('are sent again, first, until delivered, without counting attempts', async () => {
    const { clock, batcher, calls } = setup(2)
    const adds = ['a', 'b', 'c', 'd', 'e'].map((k) => batcher.add('translate', k))
    let delivered = 0
    for (const a of adds) void a.then(() => delivered++)
    await clock.advance(100)
    expect(calls).toEqual([['a', 'b', 'c', 'd', 'e']])
    expect(delivered).toBe(2)
    const late = batcher.add('translate', 'f')
    await clock.advance(100)
    expect(calls[1]).toEqual(['c', 'd', 'e', 'f'])
    await clock.advance(100)
    await clock.advance(100)
    expect(calls.slice(2)).toEqual([['e', 'f']])
    expect(await Promise.all([...adds, late])).toEqual([true, true, true, true, true, true])
    expect(batcher.pending()).toEqual({})
    expect(batcher.delayed()).toEqual({})
  })

  it('are delivered by a drain too', async () => {
    const { batcher, calls } = setup(1)
    const adds = ['a', 'b', 'c'].map((k) => batcher.add('mailbox', k))
    await batcher.drain()
    expect(calls).toEqual([['a', 'b', 'c'], ['b', 'c'], ['c']])
    expect(await Promise.all(adds)).toEqual([true, true, true])
  })
})
