import { describe, expect, it } from 'vitest'
import { opsPerSecond, percentile, ratio, round, summarize } from '../../bench/stats.ts'

describe('percentile', () => {
  const sorted = Array.from({ length: 100 }, (_, i) => i + 1)

  it('uses the nearest rank', () => {
    expect(percentile(sorted, 50)).toBe(50)
    expect(percentile(sorted, 90)).toBe(90)
    expect(percentile(sorted, 99)).toBe(99)
    expect(percentile(sorted, 100)).toBe(100)
    expect(percentile([7], 1)).toBe(7)
    expect(percentile([1, 2, 3], 50)).toBe(2)
  })

  it('is NaN for no samples and refuses a bad percentile', () => {
    expect(percentile([], 50)).toBeNaN()
    expect(() => percentile(sorted, 0)).toThrow(RangeError)
    expect(() => percentile(sorted, 101)).toThrow(RangeError)
    expect(() => percentile(sorted, Number.NaN)).toThrow(RangeError)
  })
})

describe('summarize', () => {
  it('summarizes samples in any order', () => {
    const s = summarize([5, 1, 4, 2, 3])
    expect(s).toEqual({ count: 5, min: 1, mean: 3, p50: 3, p90: 5, p99: 5, max: 5 })
  })

  it('leaves the input untouched', () => {
    const samples = [3, 1, 2]
    summarize(samples)
    expect(samples).toEqual([3, 1, 2])
  })

  it('gives NaN figures for no samples', () => {
    const s = summarize([])
    expect(s.count).toBe(0)
    for (const v of [s.min, s.mean, s.p50, s.p90, s.p99, s.max]) expect(v).toBeNaN()
  })
})

describe('opsPerSecond, ratio and round', () => {
  it('computes rates and ratios', () => {
    expect(opsPerSecond(500, 250)).toBe(2000)
    expect(ratio(20, 200)).toBeCloseTo(0.1)
  })

  it('turns impossible inputs into NaN', () => {
    expect(opsPerSecond(10, 0)).toBeNaN()
    expect(opsPerSecond(10, -1)).toBeNaN()
    expect(ratio(1, 0)).toBeNaN()
    expect(ratio(Number.NaN, 3)).toBeNaN()
    expect(ratio(-1, 3)).toBeNaN()
  })

  it('rounds, mapping non-finite values to null', () => {
    expect(round(1.26, 1)).toBe(1.3)
    expect(round(1234.5678, 2)).toBe(1234.57)
    expect(round(Number.NaN)).toBeNull()
    expect(round(Number.POSITIVE_INFINITY)).toBeNull()
  })
})
