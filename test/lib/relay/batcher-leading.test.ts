/**
 * The batcher's leading flush: a key that finds its step quiet goes out on the next turn; keys that
 * arrive while it is in flight, or soon after, still collect for delayMs.
 */
import { describe, expect, it } from 'vitest'
import { createBatcher } from '../../../lib/relay/batcher.ts'
import { createFakeClock } from './fake-clock.ts'

function setup(opts: { failFirst?: number } = {}) {
  const clock = createFakeClock()
  const flushed: string[][] = []
  let failures = opts.failFirst ?? 0
  let release: (() => void) | undefined
  let gated = false
  const batcher = createBatcher({
    delayMs: 100,
    maxKeys: 10,
    leading: true,
    setTimer: clock.setTimer,
    now: clock.now,
    random: () => 0.5,
    backoff: { baseMs: 1000, maxMs: 8000 },
    flush: async (_step, keys) => {
      if (gated) await new Promise<void>((r) => (release = r))
      if (failures > 0) {
        failures -= 1
        throw new Error('hub unavailable')
      }
      flushed.push(keys)
    },
  })
  return {
    clock,
    batcher,
    flushed,
    gate: () => (gated = true),
    open: () => {
      gated = false
      release?.()
    },
  }
}

describe('createBatcher with leading', () => {
  it('sends a lone key on the next turn, with the keys added in the same turn', async () => {
    const { clock, batcher, flushed } = setup()
    const results = [batcher.add('translate', 'a'), batcher.add('translate', 'b')]
    await clock.advance(0)
    expect(flushed).toEqual([['a', 'b']])
    expect(await Promise.all(results)).toEqual([true, true])
  })

  it('collects the keys that arrive while the first flush is in flight, then for delayMs', async () => {
    const { clock, batcher, flushed, gate, open } = setup()
    gate()
    const first = batcher.add('translate', 'a')
    await clock.advance(0)
    expect(flushed).toEqual([])
    const later = [batcher.add('translate', 'b'), batcher.add('translate', 'c')]
    open()
    await clock.advance(0)
    expect(flushed).toEqual([['a']])
    expect(await first).toBe(true)
    await clock.advance(99)
    expect(flushed).toEqual([['a']])
    await clock.advance(1)
    expect(flushed).toEqual([['a'], ['b', 'c']])
    expect(await Promise.all(later)).toEqual([true, true])
  })

  it('batches a key that comes within delayMs of the last flush, and not one after', async () => {
    const { clock, batcher, flushed } = setup()
    void batcher.add('translate', 'a')
    await clock.advance(0)
    await clock.advance(50)
    void batcher.add('translate', 'b')
    await clock.advance(99)
    expect(flushed).toEqual([['a']])
    await clock.advance(1)
    expect(flushed).toEqual([['a'], ['b']])
    await clock.advance(100)
    void batcher.add('translate', 'c')
    await clock.advance(0)
    expect(flushed).toEqual([['a'], ['b'], ['c']])
  })

  it('keeps each step quiet on its own', async () => {
    const { clock, batcher, flushed } = setup()
    void batcher.add('translate', 't')
    await clock.advance(0)
    void batcher.add('where', 'w')
    await clock.advance(0)
    expect(flushed).toEqual([['t'], ['w']])
  })

  it('waits out the backoff after a failure, not the next turn', async () => {
    const { clock, batcher, flushed } = setup({ failFirst: 1 })
    const a = batcher.add('translate', 'a')
    await clock.advance(0)
    expect(flushed).toEqual([])
    void batcher.add('translate', 'b')
    await clock.advance(0)
    expect(flushed).toEqual([])
    await clock.advance(1000)
    expect(flushed).toEqual([['a', 'b']])
    expect(await a).toBe(true)
  })

  it('starts nothing while held', async () => {
    const { clock, batcher, flushed } = setup()
    const release = batcher.hold()
    void batcher.add('translate', 'a')
    await clock.advance(500)
    expect(flushed).toEqual([])
    release()
    await clock.advance(100)
    expect(flushed).toEqual([['a']])
  })
})
