/** A Rollout's revisions in the key-value store (lib/rollout/revision-store.ts), on dynalite. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import type { RevisionRecord } from '../../../lib/rollout/revision.ts'
import {
  BODIES_NS,
  createRevisionStore,
  REVISIONS_NS,
  type RevisionStore,
  SETTLING_NS,
  StoredRevisionFormatError,
} from '../../../lib/rollout/revision-store.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

let t: TestStore
let store: RevisionStore
beforeAll(async () => {
  t = await createTestStore()
  store = createRevisionStore(t.kv)
})
afterAll(() => t?.close())

const body = (v: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: v },
})
const rec = (n: number, hashes: string[]): RevisionRecord => ({
  number: n,
  cutAt: `t${n}`,
  objects: hashes.map((h, i) => ({
    key: `/configmaps/ns/o${i}`,
    hash: h,
    version: 'v1',
    namespaced: true,
  })),
})
const bodiesOf = (...hashes: string[]) => new Map(hashes.map((h) => [h, body(h)]))

describe('revision store', () => {
  const r = { spaceId: 's1', uid: 'u1' }

  it('stores revisions in order with their bodies, apart per Rollout', async () => {
    await store.cut(r, rec(1, ['h1', 'h2']), bodiesOf('h1', 'h2'))
    await store.cut(r, rec(2, ['h1', 'h3']), bodiesOf('h1', 'h3'))
    await store.cut({ spaceId: 's1', uid: 'other' }, rec(1, ['h9']), bodiesOf('h9'))
    expect((await store.revisions(r)).map((x) => x.number)).toEqual([1, 2])
    const got = await store.bodies(r, ['h1', 'h3', 'h9'])
    expect([...got.keys()].sort()).toEqual(['h1', 'h3'])
    expect(got.get('h3')).toEqual(body('h3'))
  })

  it('keeps the first record of a number when two steps cut it', async () => {
    const first = await store.cut(r, rec(3, ['h1']), bodiesOf('h1'))
    const second = await store.cut(r, rec(3, ['h4']), bodiesOf('h4'))
    expect(second).toEqual(first)
    expect((await store.revisions(r)).at(-1)?.objects.map((o) => o.hash)).toEqual(['h1'])
  })

  it('refuses a record without its bodies', async () => {
    await expect(store.cut(r, rec(9, ['nope']), new Map())).rejects.toThrow('no body for nope')
    expect((await store.revisions(r)).map((x) => x.number)).toEqual([1, 2, 3])
  })

  it('prunes the revisions not kept and the bodies only they named', async () => {
    await store.prune(r, new Set([2, 3]))
    expect((await store.revisions(r)).map((x) => x.number)).toEqual([2, 3])
    const left = (await t.kv.list(BODIES_NS, 's1/u1/')).map((e) => e.key).sort()
    expect(left).toEqual(['s1/u1/h1', 's1/u1/h3'])
    expect((await store.revisions({ spaceId: 's1', uid: 'other' })).length).toBe(1)
  })

  it('remembers a settling content with preconditions', async () => {
    expect(await store.settling(r)).toBeUndefined()
    await store.settle(r, { contentKey: 'k', sinceMs: 5 }, null)
    const got = await store.settling(r)
    expect(got?.value).toEqual({ contentKey: 'k', sinceMs: 5 })
    await expect(store.settle(r, { contentKey: 'k2', sinceMs: 6 }, null)).rejects.toThrow()
    await store.settle(r, { contentKey: 'k2', sinceMs: 6 }, got?.version ?? 0)
    expect((await store.settling(r))?.value.contentKey).toBe('k2')
  })

  it('stores each value with its format, and refuses one of another format by name', async () => {
    const x = { spaceId: 's9', uid: 'u9' }
    await store.cut(x, rec(1, ['h1']), bodiesOf('h1'))
    const [stored] = await t.kv.list<Record<string, unknown>>(REVISIONS_NS, 's9/u9/')
    expect(stored?.value).toMatchObject({ format: 1, number: 1 })
    expect((await t.kv.get(BODIES_NS, 's9/u9/h1'))?.value).toMatchObject({ format: 1 })
    await t.kv.put(REVISIONS_NS, 's9/u9/0000000002', { number: 2, cutAt: 't', objects: [] }, null)
    await expect(store.revisions(x)).rejects.toThrow(StoredRevisionFormatError)
    await expect(store.revisions(x)).rejects.toThrow(/rollout-revisions s9\/u9\/0000000002/)
    await t.kv.put(BODIES_NS, 's9/u9/h2', { apiVersion: 'v1', kind: 'ConfigMap' }, null)
    await expect(store.bodies(x, ['h2'])).rejects.toThrow(StoredRevisionFormatError)
    await t.kv.put(SETTLING_NS, 's9/u9/', { contentKey: 'k', sinceMs: 1 }, null)
    await expect(store.settling(x)).rejects.toThrow(StoredRevisionFormatError)
  })
})
