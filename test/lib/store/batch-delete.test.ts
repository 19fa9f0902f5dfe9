import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deleteKeys } from '../../../lib/store/batch-delete.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { contextOf } from './fixtures.ts'

let t: TestStore
beforeAll(async () => {
  t = await createTestStore()
})
afterAll(() => t.close())

describe('deleteKeys', () => {
  it('deletes more items than one batch holds, and tolerates absent ones', async () => {
    for (let i = 0; i < 60; i++) await t.kv.put('bulk', `k${String(i).padStart(2, '0')}`, i)
    await t.kv.put('bulk-other', 'keep', 1)
    const keys = Array.from({ length: 70 }, (_, i) => ({
      pk: { S: 'kv#bulk' },
      sk: { S: `k${String(i).padStart(2, '0')}` },
    }))
    await deleteKeys(contextOf(t), keys)
    expect(await t.kv.list('bulk')).toEqual([])
    expect(await t.kv.list('bulk-other')).toHaveLength(1)
    await deleteKeys(contextOf(t), [])
  })
})
