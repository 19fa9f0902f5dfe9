import { describe, expect, it } from 'vitest'
import { createTracker } from '../../bench/edge-tracker.ts'

describe('createTracker', () => {
  it('keeps the first time each agent stored the current marker', () => {
    const t = createTracker(3)
    t.begin('m1', 100)
    t.observe(0, 'm1', 150)
    t.observe(0, 'm1', 900)
    t.observe(1, 'other', 200)
    t.observe(2, undefined, 200)
    t.observe(7, 'm1', 200)
    expect(t.applied()).toBe(1)
    expect(t.outcome()).toEqual({ latenciesMs: [50], missing: 2 })
  })

  it('ignores everything before begin, and starts over at the next change', () => {
    const t = createTracker(2)
    t.observe(0, 'm1', 10)
    expect(t.applied()).toBe(0)
    t.begin('m1', 0)
    t.observe(0, 'm1', 10)
    t.observe(1, 'm1', 20)
    expect(t.outcome()).toEqual({ latenciesMs: [10, 20], missing: 0 })
    t.begin('m2', 100)
    t.observe(1, 'm1', 120)
    expect(t.outcome()).toEqual({ latenciesMs: [], missing: 2 })
  })

  it('resolves wait when the last agent applied', async () => {
    const t = createTracker(2)
    t.begin('m', 0)
    const waiting = t.wait(60_000)
    t.observe(1, 'm', 5)
    t.observe(0, 'm', 7)
    expect(await waiting).toEqual({ latenciesMs: [5, 7], missing: 0 })
    expect(await t.wait(60_000)).toEqual({ latenciesMs: [5, 7], missing: 0 })
  })

  it('resolves wait at the timeout with the others missing', async () => {
    const t = createTracker(3)
    t.begin('m', 0)
    t.observe(2, 'm', 4)
    expect(await t.wait(1)).toEqual({ latenciesMs: [4], missing: 2 })
  })
})
