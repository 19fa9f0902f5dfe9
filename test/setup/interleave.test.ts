/** The order of the shared pool's queue: slow files led, then spread evenly over the fast ones. */
import { describe, expect, it } from 'vitest'
import { interleave } from './interleave.ts'

describe('interleave', () => {
  it('leads with `lead` slow files and spreads the rest evenly over all fast files', () => {
    expect(
      interleave(['e1', 'e2', 'e3'], ['u1', 'u2', 'u3', 'u4'], { lead: 1, spread: 1 })
    ).toEqual(['e1', 'u1', 'u2', 'e2', 'u3', 'u4', 'e3'])
  })

  it('spreads over the first share of the fast files only, the rest closing the queue', () => {
    const fast = Array.from({ length: 10 }, (_, i) => `u${i}`)
    expect(interleave(['e1', 'e2', 'e3'], fast, { lead: 1, spread: 0.4 })).toEqual([
      'e1',
      'u0',
      'u1',
      'e2',
      'u2',
      'u3',
      'e3',
      'u4',
      'u5',
      'u6',
      'u7',
      'u8',
      'u9',
    ])
  })

  it('keeps every file exactly once, in each list its own order', () => {
    const slow = Array.from({ length: 25 }, (_, i) => `e${i}`)
    const fast = Array.from({ length: 330 }, (_, i) => `u${i}`)
    const out = interleave(slow, fast, { lead: 2, spread: 0.7 })
    expect(out).toHaveLength(355)
    expect(out.filter((f) => f.startsWith('e'))).toEqual(slow)
    expect(out.filter((f) => f.startsWith('u'))).toEqual(fast)
    expect(out.slice(0, 2)).toEqual(['e0', 'e1'])
    expect(out.indexOf('e24')).toBeLessThan(0.75 * 355)
  })

  it('handles fewer slow files than the lead, and no fast files', () => {
    expect(interleave(['e1'], ['u1'], { lead: 2, spread: 0.7 })).toEqual(['e1', 'u1'])
    expect(interleave(['e1', 'e2', 'e3'], [], { lead: 1, spread: 0.7 })).toEqual(['e1', 'e2', 'e3'])
  })
})
