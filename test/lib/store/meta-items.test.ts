import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runInvocation } from '../../../lib/budget/frames.ts'
import {
  allocateRv,
  raiseWatermark,
  readCurrentRv,
  readWatermark,
} from '../../../lib/store/meta-items.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { contextOf } from './fixtures.ts'

let t: TestStore
beforeAll(async () => {
  t = await createTestStore()
})
afterAll(() => t.close())

describe('meta items', () => {
  it('issues distinct increasing resourceVersions, also concurrently', async () => {
    const ctx = contextOf(t)
    expect(await readCurrentRv(ctx)).toBe(0)
    const rvs = await Promise.all(Array.from({ length: 20 }, () => allocateRv(ctx)))
    expect(new Set(rvs).size).toBe(20)
    expect(Math.max(...rvs)).toBe(20)
    expect(await allocateRv(ctx)).toBe(21)
    expect(await readCurrentRv(ctx)).toBe(21)
  })

  it('writers of one invocation asking at once share counter moves, each its own range, in order', async () => {
    const counter = createRequestCounter()
    const store = await createTestStore({ counter })
    try {
      const ctx = contextOf(store)
      const counts = [1, 3, 1, 2, 1]
      const tops = await runInvocation('test', { mode: 'strict' }, () =>
        Promise.all(counts.map((c) => allocateRv(ctx, c)))
      )
      // the first alone, the four asked meanwhile in one move
      expect(counter.snapshot().UpdateItem).toBe(2)
      const ranges = tops.map((top, i) => [top - (counts[i] as number) + 1, top])
      expect(ranges).toEqual([
        [1, 1],
        [2, 4],
        [5, 5],
        [6, 7],
        [8, 8],
      ])
      expect(await readCurrentRv(ctx)).toBe(8)
    } finally {
      await store.close()
    }
  })

  it('raises the watermark but never lowers it', async () => {
    const ctx = contextOf(t)
    expect(await readWatermark(ctx)).toBe(0)
    await raiseWatermark(ctx, 5)
    await raiseWatermark(ctx, 3)
    expect(await readWatermark(ctx)).toBe(5)
    await raiseWatermark(ctx, 9)
    expect(await readWatermark(ctx)).toBe(9)
  })
})
