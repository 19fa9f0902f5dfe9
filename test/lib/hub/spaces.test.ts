import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  childSpaces,
  ensureSpace,
  getSpaceByPath,
  getSpacesByPath,
  ROOT,
} from '../../../lib/hub/spaces.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

let t: TestStore
beforeAll(async () => {
  t = await createTestStore()
})
afterAll(() => t.close())

describe('getSpacesByPath', () => {
  it('resolves many paths at once as getSpaceByPath does each', async () => {
    const a = await ensureSpace(t.kv, 'root:a')
    const b = await ensureSpace(t.kv, 'root:a:b')
    const got = await getSpacesByPath(t.kv, ['root', 'root:a', 'root:a:b', 'root:none'])
    expect([...got.keys()].sort()).toEqual(['root', 'root:a', 'root:a:b'])
    expect(got.get('root')).toEqual(ROOT)
    expect(got.get('root:a')).toEqual(a)
    expect(got.get('root:a:b')).toEqual(await getSpaceByPath(t.kv, 'root:a:b'))
    expect(got.get('root:a:b')?.id).toBe(b.id)
    expect((await getSpacesByPath(t.kv, ['root'])).size).toBe(1)
  })
})

describe('ensureSpace', () => {
  it('creates a new space with two absent-only writes and no read', async () => {
    const counter = createRequestCounter()
    const c = await createTestStore({ counter })
    try {
      counter.reset()
      const s = await ensureSpace(c.kv, 'root:fresh', { workspaceUid: 'u1' })
      expect(counter.snapshot()).toEqual({ PutItem: 2 })
      expect(await getSpaceByPath(c.kv, 'root:fresh')).toEqual(s)
      expect(s).toMatchObject({ path: 'root:fresh', parent: 'root', workspaceUid: 'u1' })
    } finally {
      await c.close()
    }
  })

  it('returns an existing space unchanged, leaving no id record of its own', async () => {
    const first = await ensureSpace(t.kv, 'root:twice')
    const again = await ensureSpace(t.kv, 'root:twice', { workspaceUid: 'other' })
    expect(again).toEqual(first)
    const ids = await t.kv.list<{ path: string }>('space-id')
    expect(ids.filter((e) => e.value.path === 'root:twice').map((e) => e.key)).toEqual([first.id])
    // the same with the id given, and for root
    expect(await ensureSpace(t.kv, 'root:twice', { id: first.id })).toEqual(first)
    expect(await ensureSpace(t.kv, 'root')).toEqual(ROOT)
  })

  it('gives concurrent creators of one path one space', async () => {
    const made = await Promise.all(Array.from({ length: 5 }, () => ensureSpace(t.kv, 'root:raced')))
    expect(new Set(made.map((s) => s.id)).size).toBe(1)
    const ids = await t.kv.list<{ path: string }>('space-id')
    expect(ids.filter((e) => e.value.path === 'root:raced')).toHaveLength(1)
  })
})

describe('childSpaces', () => {
  it('pages through the direct children of a space in name order, bounded per page', async () => {
    for (const p of ['root:p', 'root:p:a', 'root:p:a:deep', 'root:p:b', 'root:p:c', 'root:pq']) {
      await ensureSpace(t.kv, p)
    }
    const first = await childSpaces(t.kv, 'root:p', { limit: 2 })
    // 'root:p:a:deep' was read on the way: a child of a child is no child of the page.
    expect(first.spaces.map((s) => s.path)).toEqual(['root:p:a'])
    expect(first).toMatchObject({ last: 'a:deep', more: true })
    const second = await childSpaces(t.kv, 'root:p', { after: first.last, limit: 2 })
    expect(second.spaces.map((s) => s.path)).toEqual(['root:p:b', 'root:p:c'])
    expect(second).toMatchObject({ last: 'c', more: true })
    const third = await childSpaces(t.kv, 'root:p', { after: second.last, limit: 2 })
    expect(third).toEqual({ spaces: [], last: undefined, more: false })
  })
})
