/**
 * The metric items: ADDs from several shards (isolates) sum on read, repeated adds accumulate,
 * fractions keep six decimals, a delta wider than one expression is split into several
 * UpdateItems, zero deltas send nothing; a throttled chunk comes back for retry while the others
 * land; ping answers for a live table and throws for a closed port.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDynamoStore } from '../../../lib/store/dynamo-store.ts'
import { MAX_TERMS } from '../../../lib/store/metric-items.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { unreachableStore } from '../../helpers/closed-port.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

const counter = createRequestCounter()
let throttleNext = false
let t: TestStore
beforeAll(async () => {
  t = await createTestStore({
    counter,
    fault: (call) => {
      if (call.op === 'UpdateItem' && call.phase === 'before' && throttleNext) {
        throttleNext = false
        const e = new Error('slow down')
        e.name = 'ThrottlingException'
        throw e
      }
    },
  })
})
afterAll(() => t.close())

describe('metric items', () => {
  it('sums adds over shards and over time', async () => {
    await t.metrics.add(
      0,
      new Map([
        ['a|x', 2],
        ['b', 0.1],
      ])
    )
    await t.metrics.add(
      5,
      new Map([
        ['a|x', 3],
        ['b', 0.2],
      ])
    )
    await t.metrics.add(
      5,
      new Map([
        ['a|x', 1],
        ['zero', 0],
      ])
    )
    const totals = await t.metrics.read()
    expect(totals.get('a|x')).toBe(6)
    expect(totals.get('b')).toBeCloseTo(0.3, 6)
    expect(totals.has('zero')).toBe(false)
  })

  it('splits a wide delta into UpdateItems of MAX_TERMS attributes', async () => {
    const wide = new Map(Array.from({ length: MAX_TERMS * 2 + 1 }, (_, i) => [`w|${i}`, i + 1]))
    counter.reset()
    const out = await t.metrics.add(1, wide)
    expect(out).toEqual({ applied: wide.size, retry: new Map(), dropped: 0 })
    expect(counter.snapshot()).toEqual({ UpdateItem: 3 })
    const totals = await t.metrics.read()
    expect(totals.get(`w|${MAX_TERMS * 2}`)).toBe(MAX_TERMS * 2 + 1)
  })

  it('hands a throttled chunk back for retry and lands the rest', async () => {
    const wide = new Map(Array.from({ length: MAX_TERMS + 1 }, (_, i) => [`t|${i}`, 1]))
    throttleNext = true
    const out = await t.metrics.add(9, wide)
    expect(out.applied).toBe(1)
    expect(out.retry.size).toBe(MAX_TERMS)
    expect(out.dropped).toBe(0)
    const totals = await t.metrics.read()
    expect(totals.get(`t|${MAX_TERMS}`)).toBe(1)
    expect(totals.has('t|0')).toBe(false)
  })

  it('ping answers for a live table and throws when nothing listens', async () => {
    await expect(t.ping(2_000)).resolves.toBeUndefined()
    const down = await unreachableStore(t.tableName)
    await expect(down.ping(2_000)).rejects.toThrow()
    down.close()
    const missing = createDynamoStore({ client: t.client, tableName: 'no-such-table' })
    await expect(missing.ping(2_000)).rejects.toThrow()
  })
})
