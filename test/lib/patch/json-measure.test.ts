import { describe, expect, it } from 'vitest'
import { measureJson } from '../../../lib/patch/json-measure.ts'

/** `{a:{a:...}}` built without recursion. */
function nested(depth: number): unknown {
  let v: unknown = 1
  for (let i = 0; i < depth; i++) v = { a: v }
  return v
}

describe('measureJson', () => {
  it('gives the depth and the compact JSON size of plain values', () => {
    const samples: unknown[] = [
      1,
      'ab',
      null,
      true,
      [],
      {},
      [1, [2, [3]]],
      { a: 1, b: [true, null, 'x'], c: { d: {} } },
    ]
    for (const v of samples) expect(measureJson(v).bytes).toBe(JSON.stringify(v).length)
    expect(measureJson(1).depth).toBe(0)
    expect(measureJson([]).depth).toBe(1)
    expect(measureJson([1, [2, [3]]]).depth).toBe(3)
    expect(measureJson({ a: 1, b: [true], c: { d: {} } }).depth).toBe(3)
  })

  it('never overestimates (escapes and non-ASCII count less)', () => {
    const v = { 'k"': 'é\n', list: ['\u0000'] }
    expect(measureJson(v).bytes).toBeLessThanOrEqual(JSON.stringify(v).length)
  })

  it('measures 1,000,000 levels without recursion and stops early at a limit', () => {
    const deep = nested(1_000_000)
    expect(measureJson(deep).depth).toBe(1_000_000)
    expect(measureJson(deep, { maxDepth: 256 })).toMatchObject({ depth: 257, exceeded: 'depth' })
  })

  it('stops at a byte limit, also for shared members that would serialize many times', () => {
    let shared: unknown = 'x'.repeat(1000)
    for (let i = 0; i < 40; i++) shared = [shared, shared]
    const m = measureJson(shared, { maxBytes: 1_000_000 })
    expect(m.exceeded).toBe('bytes')
    expect(m.bytes).toBeLessThan(1_010_000)
  })

  it('with depthFirst, walks past the byte limit and lets depth win, keeping the bytes at the pass', () => {
    // popped last-in first: `big` is measured before `deep`
    const v = { deep: nested(10), big: 'x'.repeat(100) }
    const plain = measureJson(v, { maxDepth: 5, maxBytes: 50 })
    expect(plain.exceeded).toBe('bytes')
    expect(measureJson(v, { maxDepth: 5, maxBytes: 50, depthFirst: true }).exceeded).toBe('depth')
    const wide = { a: 'x'.repeat(100), b: 'y'.repeat(100) }
    const first = measureJson(wide, { maxBytes: 50 })
    expect(measureJson(wide, { maxBytes: 50, depthFirst: true })).toEqual(first)
  })

  it('gives the member at roomUnder.path, and only it, its extra levels', () => {
    const v = { metadata: { managedFields: nested(7), other: 1 } }
    const room = { path: ['metadata', 'managedFields'], extraDepth: 2 }
    expect(measureJson(v, { maxDepth: 8 }).exceeded).toBe('depth')
    expect(measureJson(v, { maxDepth: 8, roomUnder: room }).exceeded).toBeUndefined()
    expect(measureJson(v, { maxDepth: 7, roomUnder: room }).exceeded).toBeUndefined()
    expect(measureJson(v, { maxDepth: 6, roomUnder: room }).exceeded).toBe('depth')
    const elsewhere = { metadata: { labels: nested(7) } }
    expect(measureJson(elsewhere, { maxDepth: 8, roomUnder: room }).exceeded).toBe('depth')
  })
})
