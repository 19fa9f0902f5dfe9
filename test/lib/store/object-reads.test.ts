import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { apiError, cmKey, configMap, configMaps, seedLists } from './fixtures.ts'

let t: TestStore
beforeEach(async () => {
  t = await createTestStore()
})
afterEach(() => t.close())

const names = (items: KubeObject[]) =>
  items.map((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`)

describe('ObjectStore on DynamoDB: lists', () => {
  const seed = () => seedLists(t.objects)

  it('lists one namespace, all namespaces, cluster-scoped objects and across spaces', async () => {
    await seed()
    expect(names((await t.objects.list(configMaps('c1', 'default'))).items)).toEqual([
      'default/a',
      'default/b',
    ])
    expect(names((await t.objects.list(configMaps('c1'))).items)).toEqual([
      'default/a',
      'default/b',
      'kube-system/k',
    ])
    const nsList = await t.objects.list({
      cluster: 'c1',
      group: '',
      resource: 'namespaces',
      namespace: '',
    })
    expect(nsList.items.map((o) => o.metadata.name)).toEqual(['default'])
    expect(names((await t.objects.list(configMaps('*'))).items)).toEqual([
      'default/a',
      'default/b',
      'kube-system/k',
      'default/z',
      'other/o',
    ])
    expect(names((await t.objects.list(configMaps('*', 'default'))).items)).toEqual([
      'default/a',
      'default/b',
      'default/z',
    ])
    expect((await t.objects.list(configMaps('c3'))).items).toEqual([])
  })

  it("reports the store's resourceVersion at the start of the list", async () => {
    await seed()
    const list = await t.objects.list(configMaps('c1'))
    expect(list.resourceVersion).toBe(String(await t.objects.currentRv()))
    expect(list.continue).toBeUndefined()
  })

  it('reads no resourceVersion for a list of items only, unless it pages or is watchable', async () => {
    const counter = createRequestCounter()
    const own = await createTestStore({ counter })
    try {
      await own.objects.create(cmKey('a'), configMap('a'))
      counter.reset()
      const plain = await own.objects.list({ ...configMaps('c1'), itemsOnly: true })
      expect(names(plain.items)).toEqual(['default/a'])
      expect(plain.resourceVersion).toBe('')
      expect(counter.snapshot()).toEqual({ Query: 1 })
      const paged = await own.objects.list({ ...configMaps('c1'), itemsOnly: true, limit: 5 })
      expect(paged.resourceVersion).toBe('1')
      const watchable = await own.objects.list({
        ...configMaps('c1'),
        itemsOnly: true,
        watchable: true,
      })
      expect(watchable.resourceVersion).toBe('1')
    } finally {
      await own.close()
    }
  })

  it('pages with limit and continue, keeping the first page resourceVersion', async () => {
    for (const n of ['e', 'd', 'c', 'b', 'a']) await t.objects.create(cmKey(n), configMap(n))
    const first = await t.objects.list({ ...configMaps('c1'), limit: 2 })
    expect(names(first.items)).toEqual(['default/a', 'default/b'])
    expect(first.continue).toBeTypeOf('string')
    await t.objects.create(cmKey('f'), configMap('f'))
    const second = await t.objects.list({
      ...configMaps('c1'),
      limit: 2,
      continue: first.continue!,
    })
    expect(names(second.items)).toEqual(['default/c', 'default/d'])
    expect(second.resourceVersion).toBe(first.resourceVersion)
    const third = await t.objects.list({
      ...configMaps('c1'),
      limit: 2,
      continue: second.continue!,
    })
    expect(names(third.items)).toEqual(['default/e', 'default/f'])
    expect(third.continue).toBeUndefined()
  })

  it('counts only matching objects toward the limit when a predicate is given', async () => {
    for (let i = 0; i < 9; i++) await t.objects.create(cmKey(`o${i}`), configMap(`o${i}`))
    const even = (o: KubeObject) => Number(o.metadata.name?.slice(1)) % 2 === 0
    const collected: string[] = []
    let token: string | undefined
    let pages = 0
    do {
      const page = await t.objects.list({
        ...configMaps('c1'),
        limit: 2,
        predicate: even,
        ...(token ? { continue: token } : {}),
      })
      expect(page.items.length).toBeLessThanOrEqual(2)
      collected.push(...page.items.map((o) => o.metadata.name!))
      token = page.continue
      pages++
    } while (token && pages < 10)
    expect(collected).toEqual(['o0', 'o2', 'o4', 'o6', 'o8'])
    expect(pages).toBe(3)
  })

  it('pages across spaces', async () => {
    await seed()
    const seen: string[] = []
    let token: string | undefined
    do {
      const page = await t.objects.list({
        ...configMaps('*'),
        limit: 2,
        ...(token ? { continue: token } : {}),
      })
      seen.push(...names(page.items))
      token = page.continue
    } while (token)
    expect(seen).toEqual(['default/a', 'default/b', 'kube-system/k', 'default/z', 'other/o'])
  })

  it('rejects bad continue tokens and limits with BadRequest', async () => {
    await seed()
    const page = await t.objects.list({ ...configMaps('c1'), limit: 1 })
    const cases = [
      { ...configMaps('c1'), continue: 'not-a-token!' },
      { ...configMaps('c1'), continue: btoa('{"v":1}') },
      { ...configMaps('c2'), continue: page.continue! },
      { ...configMaps('*'), continue: page.continue! },
      { ...configMaps('c1'), limit: -1 },
      { ...configMaps('c1'), limit: 1.5 },
    ]
    for (const opts of cases) {
      const err = await apiError(t.objects.list(opts))
      expect(err.code).toBe(400)
    }
  })
})

describe('ObjectStore on DynamoDB: getMany', () => {
  it('reads many heads in one request, in the keys’ order, absent ones undefined', async () => {
    const counter = createRequestCounter()
    const store = await createTestStore({ counter })
    try {
      // a body of ~600 KB is stored in chunks beside its head, and read back whole
      const big = { ...configMap('big', 'default'), data: { v: 'x'.repeat(600_000) } }
      await store.objects.create(cmKey('a', 'default', 'c1'), configMap('a', 'default'))
      await store.objects.create(cmKey('big', 'default', 'c1'), big)
      await store.objects.create(cmKey('z', 'other', 'c2'), configMap('z', 'other'))
      counter.reset()
      const keys = [
        cmKey('z', 'other', 'c2'),
        cmKey('missing', 'default', 'c1'),
        cmKey('a', 'default', 'c1'),
        cmKey('a', 'default', 'c1'),
        { ...cmKey('long', 'default', 'c1'), name: 'n'.repeat(2000) },
        cmKey('big', 'default', 'c1'),
      ]
      const got = await store.objects.getMany(keys)
      const reads = counter.snapshot()
      // the heads in one BatchGetItem; the big body's chunks read as get reads them
      expect(reads.BatchGetItem).toBe(1)
      expect(reads.GetItem ?? 0).toBe(0)
      expect(got.map((o) => o?.metadata.name)).toEqual(['z', undefined, 'a', 'a', undefined, 'big'])
      expect(got[5]?.data).toEqual(big.data)
      expect(got[2]?.metadata.resourceVersion).toBe(
        (await store.objects.get(cmKey('a', 'default', 'c1')))?.metadata.resourceVersion
      )
      expect(await store.objects.getMany([])).toEqual([])
    } finally {
      await store.close()
    }
  })

  it('refuses an invalid key as get does', async () => {
    await expect(
      t.objects.getMany([{ ...cmKey('a', 'default', 'c1'), name: '' }])
    ).rejects.toThrow()
    await expect(t.objects.get({ ...cmKey('a', 'default', 'c1'), name: '' })).rejects.toThrow()
  })
})
