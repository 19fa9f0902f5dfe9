import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { apiError, cmKey, configMap } from './fixtures.ts'

let t: TestStore
beforeEach(async () => {
  t = await createTestStore()
})
afterEach(() => t.close())

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
