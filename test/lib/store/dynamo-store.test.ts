import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { apiError, cmKey, configMap, configMaps } from './fixtures.ts'

let t: TestStore
beforeEach(async () => {
  t = await createTestStore()
})
afterEach(() => t.close())

const names = (items: KubeObject[]) =>
  items.map((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`)

describe('ObjectStore on DynamoDB: single objects', () => {
  it('creates, reads, updates and deletes an object', async () => {
    const key = cmKey('a')
    const created = await t.objects.create(key, configMap('a', 'default', { v: '1' }))
    expect(created.metadata.resourceVersion).toBe('1')
    expect(await t.objects.get(key)).toEqual(created)

    const updated = await t.objects.update(
      key,
      { ...created, data: { v: '2' } },
      created.metadata.resourceVersion!
    )
    expect(Number(updated.metadata.resourceVersion)).toBeGreaterThan(1)
    expect(await t.objects.get(key)).toEqual(updated)

    const deleted = await t.objects.delete(key)
    expect(deleted.data).toEqual({ v: '2' })
    expect(Number(deleted.metadata.resourceVersion)).toBeGreaterThan(
      Number(updated.metadata.resourceVersion)
    )
    expect(await t.objects.get(key)).toBeUndefined()
  })

  it('refuses a duplicate create with AlreadyExists and keeps the first object', async () => {
    const key = cmKey('a')
    await t.objects.create(key, configMap('a', 'default', { v: '1' }))
    const other = { ...configMap('a', 'default', { v: 'other' }) }
    other.metadata = { ...other.metadata, uid: 'another-uid' }
    const err = await apiError(t.objects.create(key, other))
    expect(err.code).toBe(409)
    expect(err.reason).toBe('AlreadyExists')
    expect(err.message).toBe('configmaps "a" already exists')
    expect((await t.objects.get(key))?.data).toEqual({ v: '1' })
  })

  it('names the group in messages for non-core resources', async () => {
    const key = {
      cluster: 'c1',
      group: 'apps',
      resource: 'deployments',
      namespace: 'ns',
      name: 'd',
    }
    const obj = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', uid: 'u' } }
    await t.objects.create(key, obj)
    const err = await apiError(t.objects.create(key, { ...obj, metadata: { name: 'd', uid: 'v' } }))
    expect(err.message).toBe('deployments.apps "d" already exists')
    expect(err.details).toEqual({ group: 'apps', kind: 'deployments', name: 'd' })
  })

  it('refuses an update with a stale resourceVersion with Conflict', async () => {
    const key = cmKey('a')
    const v1 = await t.objects.create(key, configMap('a', 'default', { v: '1' }))
    await t.objects.update(key, { ...v1, data: { v: '2' } }, v1.metadata.resourceVersion!)
    const err = await apiError(
      t.objects.update(key, { ...v1, data: { v: 'stale' } }, v1.metadata.resourceVersion!)
    )
    expect(err.code).toBe(409)
    expect(err.reason).toBe('Conflict')
    expect(err.message).toBe(
      'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again'
    )
    expect((await t.objects.get(key))?.data).toEqual({ v: '2' })
  })

  it('answers NotFound for updates and deletes of absent objects', async () => {
    const key = cmKey('missing')
    const up = await apiError(t.objects.update(key, configMap('missing'), '1'))
    expect(up.code).toBe(404)
    expect(up.message).toBe('configmaps "missing" not found')
    const del = await apiError(t.objects.delete(key))
    expect(del.code).toBe(404)
    expect(await t.objects.get(key)).toBeUndefined()
  })

  it('honours a delete precondition', async () => {
    const key = cmKey('a')
    const v1 = await t.objects.create(key, configMap('a'))
    const v2 = await t.objects.update(
      key,
      { ...v1, data: { x: 'y' } },
      v1.metadata.resourceVersion!
    )
    const err = await apiError(t.objects.delete(key, v1.metadata.resourceVersion))
    expect(err.code).toBe(409)
    expect(err.message).toContain('Precondition failed')
    expect(await t.objects.get(key)).toEqual(v2)
    const gone = await t.objects.delete(key, v2.metadata.resourceVersion)
    expect(gone.data).toEqual({ x: 'y' })
    expect(await t.objects.get(key)).toBeUndefined()
  })

  it('issues strictly increasing resourceVersions across operations and kinds of object', async () => {
    const seen: number[] = []
    const a = await t.objects.create(cmKey('a'), configMap('a'))
    seen.push(Number(a.metadata.resourceVersion))
    const ns = await t.objects.create(
      { cluster: 'c2', group: '', resource: 'namespaces', namespace: '', name: 'n1' },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n1' } }
    )
    seen.push(Number(ns.metadata.resourceVersion))
    const a2 = await t.objects.update(cmKey('a'), a, a.metadata.resourceVersion!)
    seen.push(Number(a2.metadata.resourceVersion))
    const d = await t.objects.delete(cmKey('a'))
    seen.push(Number(d.metadata.resourceVersion))
    expect([...seen].sort((x, y) => x - y)).toEqual(seen)
    expect(new Set(seen).size).toBe(seen.length)
    expect(await t.objects.currentRv()).toBe(seen.at(-1))
  })

  it('ignores a resourceVersion the caller put in the object', async () => {
    const obj = configMap('a')
    obj.metadata.resourceVersion = '999'
    const created = await t.objects.create(cmKey('a'), obj)
    expect(created.metadata.resourceVersion).toBe('1')
    expect((await t.objects.get(cmKey('a')))?.metadata.resourceVersion).toBe('1')
  })

  it('rejects keys and resourceVersions it cannot store with BadRequest', async () => {
    const bad = [
      { ...cmKey('a'), name: '' },
      { ...cmKey('a'), name: 'a/b' },
      { ...cmKey('a'), namespace: 'x#y' },
      { ...cmKey('a'), cluster: '*' },
      { ...cmKey('a'), resource: '' },
    ]
    for (const key of bad) {
      expect((await apiError(t.objects.create(key, configMap('a')))).code).toBe(400)
      expect((await apiError(t.objects.get(key))).code).toBe(400)
    }
    await t.objects.create(cmKey('a'), configMap('a'))
    expect((await apiError(t.objects.update(cmKey('a'), configMap('a'), 'abc'))).code).toBe(400)
    expect((await apiError(t.objects.delete(cmKey('a'), '-1'))).code).toBe(400)
    expect(await t.objects.currentRv()).toBe(1)
  })

  it('lets exactly one of many concurrent updates of one object win', async () => {
    const key = cmKey('race')
    const base = await t.objects.create(key, configMap('race'))
    const attempts = Array.from({ length: 12 }, (_, i) =>
      t.objects.update(
        key,
        { ...base, data: { writer: String(i) } },
        base.metadata.resourceVersion!
      )
    )
    const results = await Promise.allSettled(attempts)
    const won = results.filter((r) => r.status === 'fulfilled')
    const lost = results.filter((r) => r.status === 'rejected')
    expect(won).toHaveLength(1)
    expect(lost.map((r) => (r.reason as { reason: string }).reason)).toEqual(
      Array(11).fill('Conflict')
    )
    const winner = (won[0] as PromiseFulfilledResult<KubeObject>).value
    expect(await t.objects.get(key)).toEqual(winner)
  })

  it('lets exactly one of many concurrent creates of one key win', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => {
        const obj = configMap('same')
        obj.metadata.uid = `uid-${i}`
        return t.objects.create(cmKey('same'), obj)
      })
    )
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    const stored = await t.objects.get(cmKey('same'))
    const winner = results.find(
      (r) => r.status === 'fulfilled'
    ) as PromiseFulfilledResult<KubeObject>
    expect(stored?.metadata.uid).toBe(winner.value.metadata.uid)
  })
})

describe('ObjectStore on DynamoDB: lists', () => {
  async function seed() {
    for (const [ns, name, cluster] of [
      ['default', 'b', 'c1'],
      ['default', 'a', 'c1'],
      ['kube-system', 'k', 'c1'],
      ['default', 'z', 'c2'],
      ['other', 'o', 'c2'],
    ] as const) {
      await t.objects.create(cmKey(name, ns, cluster), configMap(name, ns))
    }
    await t.objects.create(
      { cluster: 'c1', group: '', resource: 'namespaces', namespace: '', name: 'default' },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }
    )
  }

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
