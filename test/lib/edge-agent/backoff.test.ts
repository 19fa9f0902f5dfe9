import { describe, expect, it } from 'vitest'
import { delayAfter } from '../../../lib/edge-agent/backoff.ts'

describe('delayAfter', () => {
  it.each([
    // failures, random, expected (interval 1000, cap 8000)
    [0, 0, 900],
    [0, 0.5, 1000],
    [0, 1, 1100],
    [1, 1, 1000],
    [1, 0, 500],
    [2, 1, 2000],
    [3, 1, 4000],
    [4, 1, 8000],
    [5, 1, 8000],
    [50, 0, 4000],
  ])('after %i failures with random %d waits %i ms', (failures, r, expected) => {
    expect(delayAfter(failures, { intervalMs: 1000, random: () => r })).toBe(expected)
  })
  it('honours an explicit cap', () => {
    expect(delayAfter(10, { intervalMs: 1000, capMs: 3000, random: () => 1 })).toBe(3000)
  })
})
