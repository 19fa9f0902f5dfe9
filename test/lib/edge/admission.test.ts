import { describe, expect, it } from 'vitest'
import {
  createEdgeAdmission,
  SHED_BASE_SECONDS,
  SHED_MAX_SECONDS,
  SHED_SPREAD_SECONDS,
  shedRetryAfter,
} from '../../../lib/edge/admission.ts'

const at = (ms: number) => () => ms

describe('shedRetryAfter', () => {
  it('asks the base at the lowest draw and base + spread at the highest, under little pressure', () => {
    expect(shedRetryAfter(100, 1, () => 0)).toBe(SHED_BASE_SECONDS)
    expect(shedRetryAfter(100, 1, () => 0.999_999)).toBe(SHED_BASE_SECONDS + SHED_SPREAD_SECONDS)
  })

  it('widens the window as more are shed per unit of the limit, never past the cap', () => {
    const high = () => 0.999_999
    expect(shedRetryAfter(10, 10, high)).toBe(SHED_BASE_SECONDS + 2 * SHED_SPREAD_SECONDS)
    expect(shedRetryAfter(10, 10_000, high)).toBe(SHED_MAX_SECONDS)
    expect(shedRetryAfter(10, 10_000, () => 0)).toBe(SHED_BASE_SECONDS)
  })

  it('stays within its bounds for every draw, even a random source out of [0, 1)', () => {
    for (const r of [-1, 0, 0.25, 0.5, 0.75, 1, 2]) {
      for (const shed of [0, 1, 50, 5_000]) {
        const s = shedRetryAfter(50, shed, () => r)
        expect(Number.isInteger(s)).toBe(true)
        expect(s).toBeGreaterThanOrEqual(SHED_BASE_SECONDS)
        expect(s).toBeLessThanOrEqual(SHED_MAX_SECONDS)
      }
    }
  })
})

describe('createEdgeAdmission', () => {
  it('admits up to the limit, sheds the next, and admits again once one is released', () => {
    const a = createEdgeAdmission({ limit: 2, random: () => 0, now: at(0) })
    const one = a.admit()
    const two = a.admit()
    expect(one.ok && two.ok).toBe(true)
    const third = a.admit()
    expect(third).toMatchObject({ ok: false, inFlight: 2, limit: 2, retryAfterSeconds: 1 })
    if (one.ok) one.ticket.release()
    expect(a.inFlight()).toBe(1)
    expect(a.admit().ok).toBe(true)
  })

  it('sheds nothing at limit 0', () => {
    const a = createEdgeAdmission({ limit: 0, random: () => 0, now: at(0) })
    for (let i = 0; i < 1000; i++) expect(a.admit().ok).toBe(true)
  })

  it('does not count a parked ticket, counts it again on resume, and releases it once', () => {
    const a = createEdgeAdmission({ limit: 1, random: () => 0, now: at(0) })
    const held = a.admit()
    if (!held.ok) throw new Error('not admitted')
    held.ticket.park()
    held.ticket.park()
    expect(a.inFlight()).toBe(0)
    const plain = a.admit()
    expect(plain.ok).toBe(true)
    if (plain.ok) plain.ticket.release()
    held.ticket.resume()
    held.ticket.resume()
    expect(a.inFlight()).toBe(1)
    expect(a.admit().ok).toBe(false)
    held.ticket.release()
    held.ticket.release()
    held.ticket.resume()
    expect(a.inFlight()).toBe(0)
  })

  it('a ticket released while parked is not subtracted twice', () => {
    const a = createEdgeAdmission({ limit: 1, random: () => 0, now: at(0) })
    const held = a.admit()
    if (!held.ok) throw new Error('not admitted')
    held.ticket.park()
    held.ticket.release()
    expect(a.inFlight()).toBe(0)
  })

  it('asks longer waits of a storm than of a few, by the sheds of this and the last second', () => {
    let now = 5_000
    const a = createEdgeAdmission({ limit: 1, random: () => 0.999_999, now: () => now })
    a.admit()
    const first = a.admit()
    expect(first).toMatchObject({ ok: false, retryAfterSeconds: 1 + Math.floor(4 * 2) })
    for (let i = 0; i < 100; i++) a.admit()
    expect(a.admit()).toMatchObject({ retryAfterSeconds: SHED_MAX_SECONDS })
    now += 1000 // the next second still remembers the last one's
    expect(a.admit()).toMatchObject({ retryAfterSeconds: SHED_MAX_SECONDS })
    now += 5000 // a quiet spell: back to the least window
    expect(a.admit()).toMatchObject({ retryAfterSeconds: 1 + 8 })
  })

  it('reports the sheds at most once a second, with the count since the last report', () => {
    let now = 0
    const a = createEdgeAdmission({ limit: 1, random: () => 0, now: () => now })
    a.admit()
    const reports = () => {
      const out: number[] = []
      for (let i = 0; i < 5; i++) {
        const r = a.admit()
        if (!r.ok && r.report) out.push(r.report.shed)
      }
      return out
    }
    expect(reports()).toEqual([1])
    now = 999
    expect(reports()).toEqual([])
    now = 1000
    expect(reports()).toEqual([10])
  })
})
