import { describe, expect, it } from 'vitest'
import { combineRounds } from '../../bench/edge-idle.ts'
import type { LoadResult } from '../../bench/load.ts'
import { summarize } from '../../bench/stats.ts'

const round = (ops: number, elapsedMs: number, p50: number): LoadResult => ({
  ops,
  concurrency: 16,
  elapsedMs,
  opsPerSec: (ops * 1000) / elapsedMs,
  latencyMs: summarize([p50]),
})

describe('combineRounds', () => {
  it('rates all rounds over their summed time, latencies from the median round', () => {
    const r = combineRounds([round(100, 1000, 5), round(100, 500, 2), round(100, 250, 1)])
    expect(r.ops).toBe(300)
    expect(r.elapsedMs).toBe(1750)
    expect(r.opsPerSec).toBeCloseTo(300 / 1.75)
    expect(r.p50Ms).toBe(2)
    expect(r.p99Ms).toBe(2)
  })

  it('is NaN without rounds', () => {
    const r = combineRounds([])
    expect(r.ops).toBe(0)
    expect(r.opsPerSec).toBeNaN()
    expect(r.p50Ms).toBeNaN()
  })
})
