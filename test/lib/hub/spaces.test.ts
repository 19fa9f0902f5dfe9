import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureSpace, getSpaceByPath, getSpacesByPath, ROOT } from '../../../lib/hub/spaces.ts'
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
