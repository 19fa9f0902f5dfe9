import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  childSpaces,
  ensureSpace,
  getSpaceByPath,
  getSpacesByPath,
  ROOT,
} from '../../../lib/hub/spaces.ts'
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
