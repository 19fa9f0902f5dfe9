import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  allocateRv,
  raiseWatermark,
  readCurrentRv,
  readWatermark,
} from '../../../lib/store/meta-items.ts'
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
