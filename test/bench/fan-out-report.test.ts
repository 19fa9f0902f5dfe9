import { describe, expect, it } from 'vitest'
import { fanOutFigures, fanOutJson, renderFanOut } from '../../bench/fan-out-report.ts'
import { fanOut, phase } from './fan-out-fixture.ts'

describe('fanOutFigures', () => {
  it('derives the per-pair figures, the throughput ratio and the verdicts', () => {
    const q = fanOutFigures(fanOut())
    expect(q.pairs).toBe(100_000)
    expect(q.requestsPerPair).toBeCloseTo(0.06102)
    expect(q.requestsPerMailbox).toBeCloseTo(6.102)
    expect(q.bodyPutsPerPair).toBeCloseTo(0.003)
    expect(q.bodiesStoredPerPair).toBeCloseTo(0.00102)
    expect(q.pairsPerSec).toBeCloseTo(20_000)
    expect(q.vsRawPutItem).toBeCloseTo(50)
    expect(q.completeMet).toBe(true)
    expect(q.bodiesMet).toBe(true)
    expect(q.change.requestsPerDestination).toBeCloseTo(4)
    expect(q.change.bodyPutsPerChange).toBeCloseTo(0.008)
    expect(q.change.bodiesStoredPerChange).toBeCloseTo(0.001)
    expect(q.change.bodiesMet).toBe(true)
  })

  it.each([
    [9_999, true],
    [10_000, false],
    [31_000, false],
  ])('a fan-out complete in %i ms meets the 10 s target: %s', (completeMs, met) => {
    expect(fanOutFigures(fanOut({ initial: phase({ completeMs }) })).completeMet).toBe(met)
  })

  it('misses the body target past one body PutItem per (object, destination)', () => {
    const f = fanOut({ initial: phase({ bodies: { attempted: 100_001, stored: 100 } }) })
    expect(fanOutFigures(f).bodiesMet).toBe(false)
    const g = fanOut({ change: phase({ bodies: { attempted: 1000, stored: 1000 } }) })
    expect(fanOutFigures(g).change.bodiesMet).toBe(true)
  })
})

describe('renderFanOut', () => {
  it('prints the figures with their verdicts', () => {
    const text = renderFanOut(fanOut(), 16)
    expect(text).toContain('5. Fan-out: one EdgePlacement selecting 100 ConfigMaps')
    expect(text).toContain('500 keys per call, 2 calls in flight')
    expect(text).toContain(
      'fan-out 100 objects → 1000 targets: complete in 6.2 s (target < 10 s: met)'
    )
    expect(text).toContain(
      'DynamoDB requests: 6102 = 0.0610 per (object, destination), 6.10 per mailbox'
    )
    expect(text).toContain('BatchWriteItem 1000, GetItem 3000, PutItem 1102, UpdateItem 1000')
    expect(text).toContain(
      'bodies: 102 written, 300 PutItems sent = 0.00300 per (object, destination) (target ≤ 1: met)'
    )
    expect(text).toContain(
      '20000 (object, destination)/s = 50.00x raw PutItem (400.0 items/s, 16 workers)'
    )
    expect(text).toContain('change of 1 ConfigMap → 1000 targets: complete in 2.1 s')
    expect(text).toContain('4000 = 4.00 per destination')
    expect(text).toContain('0.00800 per (object, destination) change (target ≤ 1: met)')
    expect(text).toMatch(
      /translate per mailbox \(hub log, 3 runs\): p50 20 ms, p90 30 ms, max 30 ms/
    )
  })

  it('says when a target is missed', () => {
    const text = renderFanOut(fanOut({ initial: phase({ completeMs: 31_400 }) }), 16)
    expect(text).toContain('complete in 31.4 s (target < 10 s: MISSED)')
  })
})

describe('fanOutJson', () => {
  it('carries the figures and verdicts, NaN as null', () => {
    const f = fanOut({ rawPutPerSec: Number.NaN })
    const json = JSON.parse(JSON.stringify(fanOutJson(f)))
    expect(json).toMatchObject({
      targets: 1000,
      objects: 100,
      pairs: 100_000,
      setupMs: { create: 25_000, mailbox: 80_000, translate: 20_000 },
      rawPutPerSec: null,
      targetsMet: { completeUnder10s: true, bodiesPerChange: true },
    })
    expect(json.initial).toMatchObject({
      completeMs: 6200,
      requestsTotal: 6102,
      requestsPerPair: 0.06102,
      bodies: { attempted: 300, stored: 102 },
      bodyPutsPerPair: 0.003,
      pairsPerSec: 20_000,
      vsRawPutItem: null,
      translateKeyMs: { count: 3, p50: 20, p90: 30, max: 30 },
    })
    expect(json.change).toMatchObject({ requestsPerDestination: 4, bodyPutsPerChange: 0.008 })
  })
})
