import { describe, expect, it } from 'vitest'
import { backoffDelay } from '../../../lib/relay/backoff.ts'

describe('backoffDelay', () => {
  const policy = { baseMs: 100, maxMs: 1000 }

  it('doubles per attempt up to the cap, scaled by jitter into [50%, 100%]', () => {
    const top = () => 0.999999
    expect([1, 2, 3, 4, 5, 9].map((n) => backoffDelay(n, policy, top))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ])
    expect(backoffDelay(3, policy, () => 0)).toBe(200)
  })

  it('tolerates bad attempts and random values', () => {
    expect(backoffDelay(0, policy, () => 0)).toBe(50)
    expect(backoffDelay(-3, policy, () => 5)).toBe(100)
    expect(backoffDelay(1e9, policy, () => -1)).toBe(500)
  })
})
