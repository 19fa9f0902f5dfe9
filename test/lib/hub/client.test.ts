/**
 * The hub client (lib/hub/client.ts) reads like a step needs: lists of one space made at once
 * resolve that space once (a step's snapshot lists some forty resources in parallel), read no
 * resourceVersion, and a space that is not there is asked for again on the next call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHubClient } from '../../../lib/hub/client.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

const counter = createRequestCounter()
let hub: TestHub
beforeAll(async () => {
  hub = await createTestHub({ counter })
  const ws = { apiVersion: 'tenancy.kcp.io/v1alpha1', kind: 'Workspace', metadata: { name: 'c' } }
  expect(
    (await hub.call('POST', '/clusters/root/apis/tenancy.kcp.io/v1alpha1/workspaces', ws)).status
  ).toBe(201)
})
afterAll(() => hub.close())

const RESOURCES = ['configmaps', 'secrets', 'services', 'serviceaccounts', 'pods'] as const

describe('the hub client', () => {
  it('resolves a space once for lists made at once, and reads no resourceVersion', async () => {
    const client = createHubClient(hub.deps, { fieldManager: 'test' })
    const id = (await client.space('root:c')).id
    // Warms the space's registry (a hub cache of its own), so only the lists' reads are counted.
    await client.list(id, { group: '', version: 'v1', resource: 'configmaps' })
    const fresh = createHubClient(hub.deps, { fieldManager: 'test' })
    counter.reset()
    const lists = await Promise.all(
      RESOURCES.map((resource) => fresh.list(id, { group: '', version: 'v1', resource }))
    )
    expect(lists.map((items) => items.length)).toEqual(RESOURCES.map(() => 0))
    const ops = counter.snapshot()
    expect(ops.Query).toBe(RESOURCES.length)
    // The space by id, then by path: two reads in all, and none of the counter.
    expect(ops.GetItem).toBe(2)
  })

  it('getMany reads objects of one resource by name together, served as get serves them', async () => {
    const client = createHubClient(hub.deps, { fieldManager: 'test' })
    const ws = { group: 'tenancy.kcp.io', version: 'v1alpha1', resource: 'workspaces' }
    await client.list('root', ws)
    counter.reset()
    const got = await client.getMany('root', ws, ['c', 'missing', 'espw'])
    expect([...got.keys()].sort()).toEqual(['c', 'espw'])
    expect(counter.snapshot()).toMatchObject({ BatchGetItem: 1 })
    expect(counter.snapshot().GetItem ?? 0).toBe(0)
    expect(got.get('c')).toEqual(await client.get('root', ws, 'c'))
    await expect(client.getMany('root:nope', ws, ['c'])).rejects.toMatchObject({ code: 404 })
  })

  it('asks again for a space that was not there', async () => {
    const client = createHubClient(hub.deps, { fieldManager: 'test' })
    await expect(client.space('root:later')).rejects.toMatchObject({ code: 404 })
    const ws = {
      apiVersion: 'tenancy.kcp.io/v1alpha1',
      kind: 'Workspace',
      metadata: { name: 'later' },
    }
    expect(
      (await hub.call('POST', '/clusters/root/apis/tenancy.kcp.io/v1alpha1/workspaces', ws)).status
    ).toBe(201)
    expect((await client.space('root:later')).path).toBe('root:later')
  })
})
