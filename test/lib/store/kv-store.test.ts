import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { apiError } from './fixtures.ts'

let t: TestStore
beforeAll(async () => {
  t = await createTestStore()
})
afterAll(() => t.close())

describe('KvStore on DynamoDB', () => {
  it('puts unconditionally, counting versions from 1', async () => {
    expect(await t.kv.get('u', 'k')).toBeUndefined()
    expect(await t.kv.put('u', 'k', { cursor: 1 })).toBe(1)
    expect(await t.kv.put('u', 'k', { cursor: 2 })).toBe(2)
    expect(await t.kv.get('u', 'k')).toEqual({ key: 'k', value: { cursor: 2 }, version: 2 })
  })

  it('swaps: writes unconditionally and answers the entry it replaced, in one request', async () => {
    const counter = createRequestCounter()
    const c = await createTestStore({ counter })
    try {
      expect(await c.kv.swap('s', 'k', { at: 1 })).toBeUndefined()
      counter.reset()
      expect(await c.kv.swap('s', 'k', { at: 2 })).toEqual({
        key: 'k',
        value: { at: 1 },
        version: 1,
      })
      expect(counter.snapshot()).toEqual({ UpdateItem: 1 })
      expect(await c.kv.get('s', 'k')).toEqual({ key: 'k', value: { at: 2 }, version: 2 })
      expect(await c.kv.put('s', 'k', { at: 3 }, 2)).toBe(3) // versions go on as for any put
      await expect(c.kv.swap('s', 'x'.repeat(2000), 1)).rejects.toMatchObject({ code: 400 })
      await expect(c.kv.swap('s', 'k', undefined)).rejects.toMatchObject({ code: 400 })
    } finally {
      await c.close()
    }
  })

  it('gets many keys of a namespace at once, absent and unstorable ones missing', async () => {
    const keys = Array.from({ length: 150 }, (_, i) => `k${i}`)
    for (const k of keys.slice(0, 120)) await t.kv.put('many', k, { k })
    await t.kv.put('other', 'k1', 'elsewhere')
    const got = await t.kv.getMany<{ k: string }>('many', [...keys, 'k1', 'x'.repeat(2000)])
    expect(got.size).toBe(120)
    expect(got.get('k7')).toEqual({ key: 'k7', value: { k: 'k7' }, version: 1 })
    expect(got.has('k130')).toBe(false)
    expect((await t.kv.getMany('many', [])).size).toBe(0)
  })

  it('lists a bounded page after a key, within a prefix', async () => {
    for (const k of ['a:1', 'a:2', 'a:3', 'a:4', 'b:1', 'a']) await t.kv.put('paged', k, k)
    const keys = async (prefix: string, page: { after?: string; limit: number }) =>
      (await t.kv.list('paged', prefix, page)).map((e) => e.key)
    expect(await keys('a:', { limit: 2 })).toEqual(['a:1', 'a:2'])
    expect(await keys('a:', { after: 'a:2', limit: 2 })).toEqual(['a:3', 'a:4'])
    // The prefix ends before the limit: fewer entries back, none from past the prefix.
    expect(await keys('a:', { after: 'a:3', limit: 5 })).toEqual(['a:4'])
    expect(await keys('a:', { after: 'a:4', limit: 5 })).toEqual([])
    // An `after` before the prefix starts at the prefix.
    expect(await keys('b:', { after: 'a:9', limit: 5 })).toEqual(['b:1'])
    expect(await keys('', { after: 'a:4', limit: 5 })).toEqual(['b:1'])
    expect(await keys('', { limit: 1 })).toEqual(['a'])
  })

  it('pages on past the 1 MB a single Query answers', async () => {
    const big = 'x'.repeat(300_000)
    for (let i = 0; i < 5; i++) await t.kv.put('big', `k${i}`, big)
    const page = await t.kv.list<string>('big', 'k', { limit: 5 })
    expect(page.map((e) => e.key)).toEqual(['k0', 'k1', 'k2', 'k3', 'k4'])
  })

  it('puts only-if-absent, AlreadyExists when present', async () => {
    expect(await t.kv.put('a', 'k', 'first', null)).toBe(1)
    const err = await apiError(t.kv.put('a', 'k', 'second', null))
    expect(err.code).toBe(409)
    expect(err.reason).toBe('AlreadyExists')
    expect((await t.kv.get('a', 'k'))?.value).toBe('first')
  })

  it('puts only-if-version-matches, Conflict otherwise (also when absent)', async () => {
    await t.kv.put('v', 'k', 1, null)
    expect(await t.kv.put('v', 'k', 2, 1)).toBe(2)
    const stale = await apiError(t.kv.put('v', 'k', 3, 1))
    expect(stale.code).toBe(409)
    expect(stale.reason).toBe('Conflict')
    expect(await t.kv.get('v', 'k')).toEqual({ key: 'k', value: 2, version: 2 })
    expect((await apiError(t.kv.put('v', 'absent', 1, 1))).reason).toBe('Conflict')
    expect(await t.kv.get('v', 'absent')).toBeUndefined()
  })

  it('lets one of many concurrent conditional puts win', async () => {
    await t.kv.put('race', 'k', 0, null)
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => t.kv.put('race', 'k', i + 1, 1))
    )
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    expect((await t.kv.get('race', 'k'))?.version).toBe(2)
  })

  it('deletes, with an optional version precondition', async () => {
    await t.kv.put('d', 'k', 'x')
    await t.kv.put('d', 'k', 'y')
    expect((await apiError(t.kv.delete('d', 'k', 1))).reason).toBe('Conflict')
    expect((await t.kv.get('d', 'k'))?.value).toBe('y')
    await t.kv.delete('d', 'k', 2)
    expect(await t.kv.get('d', 'k')).toBeUndefined()
    await t.kv.put('d', 'j', 'z')
    await t.kv.delete('d', 'j')
    await t.kv.delete('d', 'j')
    expect(await t.kv.get('d', 'j')).toBeUndefined()
    expect((await apiError(t.kv.delete('d', 'j', 1))).reason).toBe('Conflict')
  })

  it('lists a namespace in key order, optionally by prefix', async () => {
    for (const k of ['relay/b', 'relay/a', 'resync/x', 'r']) await t.kv.put('l', k, { k })
    await t.kv.put('l2', 'relay/c', 'other namespace')
    expect((await t.kv.list('l')).map((e) => e.key)).toEqual([
      'r',
      'relay/a',
      'relay/b',
      'resync/x',
    ])
    const relay = await t.kv.list<{ k: string }>('l', 'relay/')
    expect(relay).toEqual([
      { key: 'relay/a', value: { k: 'relay/a' }, version: 1 },
      { key: 'relay/b', value: { k: 'relay/b' }, version: 1 },
    ])
    expect(await t.kv.list('empty')).toEqual([])
  })

  it('keeps JSON values of every kind intact', async () => {
    const values = [null, true, 0, -1.5, 'text', [1, 'a', { b: [] }], { nested: { deep: ['x'] } }]
    for (const [i, value] of values.entries()) {
      await t.kv.put('j', `k${i}`, value)
      expect((await t.kv.get('j', `k${i}`))?.value).toEqual(value)
    }
  })

  it('rejects empty keys, non-JSON and oversized values', async () => {
    expect((await apiError(t.kv.put('x', '', 1))).code).toBe(400)
    expect((await apiError(t.kv.get('x', ''))).code).toBe(400)
    expect((await apiError(t.kv.put('x', 'k', undefined))).code).toBe(400)
    expect((await apiError(t.kv.put('x', 'k', 1, 1.5))).code).toBe(400)
    const err = await apiError(t.kv.put('x', 'big', 'y'.repeat(400_000)))
    expect(err.code).toBe(413)
    expect(await t.kv.get('x', 'big')).toBeUndefined()
  })
})
