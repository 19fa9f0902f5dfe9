import { describe, expect, it } from 'vitest'
import { runLoad } from '../../bench/load.ts'

/** A clock that advances by one millisecond per reading. */
function tickingClock() {
  let t = 0
  return () => t++
}

describe('runLoad', () => {
  it('runs every index exactly once', async () => {
    const seen: number[] = []
    const res = await runLoad({ count: 25, concurrency: 4 }, async (i) => {
      await new Promise((r) => setTimeout(r, i % 3))
      seen.push(i)
    })
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i))
    expect(res.ops).toBe(25)
    expect(res.concurrency).toBe(4)
    expect(res.latencyMs.count).toBe(25)
  })

  it('keeps at most `concurrency` operations in flight', async () => {
    let inFlight = 0
    let peak = 0
    await runLoad({ count: 30, concurrency: 5 }, async () => {
      inFlight++
      peak = Math.max(peak, inFlight)
      await new Promise((r) => setTimeout(r, 1))
      inFlight--
    })
    expect(peak).toBe(5)
  })

  it('runs one at a time when sequential', async () => {
    const order: string[] = []
    await runLoad({ count: 3, concurrency: 1 }, async (i) => {
      order.push(`start ${i}`)
      await Promise.resolve()
      order.push(`end ${i}`)
    })
    expect(order).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2'])
  })

  it('derives the rate and latencies from the clock', async () => {
    const res = await runLoad({ count: 4, concurrency: 1, clock: tickingClock() }, async () => {})
    // start=0; each op reads the clock twice (1 ms latency); end reading is 9.
    expect(res.elapsedMs).toBe(9)
    expect(res.latencyMs.p50).toBe(1)
    expect(res.opsPerSec).toBeCloseTo(4000 / 9)
  })

  it('caps the workers at the number of operations', async () => {
    const res = await runLoad({ count: 2, concurrency: 16 }, async () => {})
    expect(res.concurrency).toBe(2)
  })

  it('stops starting operations after a failure and rethrows it', async () => {
    const started: number[] = []
    const run = runLoad({ count: 100, concurrency: 2 }, async (i) => {
      started.push(i)
      await Promise.resolve()
      if (i === 3) throw new Error('boom')
    })
    await expect(run).rejects.toThrow('boom')
    await new Promise((r) => setTimeout(r, 5))
    expect(started.length).toBeLessThan(10)
  })

  it('refuses bad sizes', async () => {
    await expect(runLoad({ count: -1, concurrency: 1 }, async () => {})).rejects.toThrow(RangeError)
    await expect(runLoad({ count: 1.5, concurrency: 1 }, async () => {})).rejects.toThrow(
      RangeError
    )
    await expect(runLoad({ count: 1, concurrency: 0 }, async () => {})).rejects.toThrow(RangeError)
  })

  it('handles zero operations', async () => {
    const res = await runLoad({ count: 0, concurrency: 4 }, async () => {
      throw new Error('never called')
    })
    expect(res.ops).toBe(0)
    expect(res.latencyMs.count).toBe(0)
  })
})
