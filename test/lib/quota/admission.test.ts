/**
 * SpaceQuotas through the API (lib/quota/admission.ts via lib/hub/write.ts, driven with
 * `app.request()`): creates past `maxObjects` or a resource's bound are kube's 403 `exceeded
 * quota` with kube's wording; deletes free their place; 16 racing creators never pass the bound;
 * objects already there count from the first create; the steps' own writes (the in-process
 * client) are counted but never refused; subtrees hold each space separately; mailbox spaces are
 * never held; only admins manage SpaceQuotas, in root only; with no SpaceQuota a create costs no
 * request more than before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHubClient } from '../../../lib/hub/client.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
const WS = '/apis/tenancy.kcp.io/v1alpha1/workspaces'
const QUOTAS = '/apis/tenancy.edgeplane.io/v1alpha1/spacequotas'
const cms = (space: string) => `/clusters/${space}/api/v1/namespaces/default/configmaps`
const cm = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default' },
})
const quota = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'tenancy.edgeplane.io/v1alpha1',
  kind: 'SpaceQuota',
  metadata: { name },
  spec,
})
const ws = (name: string) => ({
  apiVersion: 'tenancy.kcp.io/v1alpha1',
  kind: 'Workspace',
  metadata: { name },
})

async function makeSpace(parent: string, name: string) {
  const res = await hub.call('POST', `/clusters/${parent}${WS}`, ws(name))
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  // A new space's default Namespace is made by its Workspace hook.
  expect(
    (await hub.call('GET', `/clusters/${parent}:${name}/api/v1/namespaces/default`)).status
  ).toBe(200)
}

const create = (space: string, name: string, token?: string) =>
  hub.call('POST', cms(space), cm(name), token ? { token } : {})

beforeAll(async () => {
  hub = await createTestHub()
  for (const name of ['team-a', 'team-b', 'team-c', 'team-d', 'race', 'steps', 'tree', 'free'])
    await makeSpace('root', name)
  await makeSpace('root:tree', 'one')
  await makeSpace('root:tree', 'two')
  await hub.mintToken('team-a', ['root:team-a'])
})
afterAll(() => hub.close())

describe('a SpaceQuota', () => {
  it('is served in root only, to admins only', async () => {
    const body = quota('nope', { spaces: ['root:team-a'], maxObjects: 1 })
    const asUser = await hub.call('POST', QUOTAS, body, { token: 'team-a' })
    expect(asUser.status).toBe(403)
    expect((await hub.call('GET', `/clusters/root:team-a${QUOTAS}`)).status).toBe(404)
    const invalid = await hub.call('POST', QUOTAS, quota('bad', { spaces: [], maxObjects: -1 }))
    expect(invalid.status).toBe(422)
  })

  it('refuses the create past maxObjects with kube words, counting what was there before', async () => {
    // team-a holds its default Namespace and two ConfigMaps (one the root CA's, if any) already.
    expect((await create('root:team-a', 'before-1', 'team-a')).status).toBe(201)
    const list = await hub.call('GET', '/clusters/root:team-a/api/v1/configmaps')
    const namespaces = await hub.call('GET', '/clusters/root:team-a/api/v1/namespaces')
    const held = list.body.items.length + namespaces.body.items.length
    const made = await hub.call(
      'POST',
      QUOTAS,
      quota('team-a', { spaces: ['root:team-a'], maxObjects: held + 2 })
    )
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    expect((await create('root:team-a', 'q-1', 'team-a')).status).toBe(201)
    expect((await create('root:team-a', 'q-2', 'team-a')).status).toBe(201)
    const refused = await create('root:team-a', 'q-3', 'team-a')
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      details: { name: 'q-3', kind: 'configmaps' },
      message: `configmaps "q-3" is forbidden: exceeded quota: team-a, requested: objects=1, used: objects=${held + 2}, limited: objects=${held + 2}`,
    })
    expect((await hub.call('GET', `${cms('root:team-a')}/q-3`)).status).toBe(404)
  })

  it('gives the place of a deleted object back', async () => {
    expect((await hub.call('DELETE', `${cms('root:team-a')}/q-1`)).status).toBe(200)
    expect((await create('root:team-a', 'q-3', 'team-a')).status).toBe(201)
    expect((await create('root:team-a', 'q-4', 'team-a')).status).toBe(403)
  })

  it('bounds one resource with kube count keys, other resources unbounded', async () => {
    const spec = {
      spaces: ['root:team-b'],
      resources: [
        { group: '', resource: 'configmaps', max: 1 },
        { group: 'apps', resource: 'deployments', max: 5 },
      ],
    }
    expect((await hub.call('POST', QUOTAS, quota('team-b', spec))).status).toBe(201)
    expect((await create('root:team-b', 'one')).status).toBe(201)
    const refused = await create('root:team-b', 'two')
    expect(refused.status).toBe(403)
    expect(refused.body.message).toBe(
      'configmaps "two" is forbidden: exceeded quota: team-b, requested: count/configmaps=1, used: count/configmaps=1, limited: count/configmaps=1'
    )
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } }
    expect(
      (await hub.call('POST', '/clusters/root:team-b/api/v1/namespaces/default/secrets', secret))
        .status
    ).toBe(201)
  })

  it('names every bound passed, sorted, as kube prints them', async () => {
    const spec = {
      spaces: ['root:team-c'],
      maxObjects: 1,
      resources: [{ group: '', resource: 'configmaps', max: 0 }],
    }
    expect((await hub.call('POST', QUOTAS, quota('team-c', spec))).status).toBe(201)
    const refused = await create('root:team-c', 'x')
    expect(refused.body.message).toBe(
      'configmaps "x" is forbidden: exceeded quota: team-c, requested: count/configmaps=1,objects=1, used: count/configmaps=0,objects=1, limited: count/configmaps=0,objects=1'
    )
  })

  it('lets 16 racing creators reach the bound exactly, never past it', async () => {
    const spec = {
      spaces: ['root:race'],
      resources: [{ group: '', resource: 'configmaps', max: 5 }],
    }
    expect((await hub.call('POST', QUOTAS, quota('race', spec))).status).toBe(201)
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) => create('root:race', `r-${i}`))
    )
    const codes = answers.map((a) => a.status).sort()
    expect(codes.filter((c) => c === 201)).toHaveLength(5)
    expect(codes.filter((c) => c === 403)).toHaveLength(11)
    const list = await hub.call('GET', '/clusters/root:race/api/v1/configmaps')
    expect(list.body.items).toHaveLength(5)
  })

  it('counts the steps’ own writes without refusing them', async () => {
    const spec = {
      spaces: ['root:steps'],
      resources: [{ group: '', resource: 'configmaps', max: 1 }],
    }
    expect((await hub.call('POST', QUOTAS, quota('steps', spec))).status).toBe(201)
    const client = createHubClient(hub.deps, { fieldManager: 'test-step' })
    const gvr = { group: '', version: 'v1', resource: 'configmaps' }
    await client.create('root:steps', gvr, cm('by-step-1'))
    await client.create('root:steps', gvr, cm('by-step-2'))
    expect((await create('root:steps', 'by-user')).status).toBe(403)
    await client.delete('root:steps', gvr, 'by-step-1', { namespace: 'default' })
    await client.delete('root:steps', gvr, 'by-step-2', { namespace: 'default' })
    expect((await create('root:steps', 'by-user')).status).toBe(201)
  })

  it('holds each space of a subtree on its own, and not the subtree root', async () => {
    const spec = {
      spaces: ['root:tree:*'],
      resources: [{ group: '', resource: 'configmaps', max: 1 }],
    }
    expect((await hub.call('POST', QUOTAS, quota('tree', spec))).status).toBe(201)
    expect((await create('root:tree:one', 'a')).status).toBe(201)
    expect((await create('root:tree:two', 'a')).status).toBe(201)
    expect((await create('root:tree:one', 'b')).status).toBe(403)
    expect((await create('root:tree', 'a')).status).toBe(201)
    expect((await create('root:tree', 'b')).status).toBe(201)
  })

  it('never holds the mailbox spaces, even when asked to', async () => {
    const spec = { spaces: ['root:espw', 'root:espw:*'], maxObjects: 0 }
    expect((await hub.call('POST', QUOTAS, quota('espw', spec))).status).toBe(201)
    expect((await create('root:espw', 'free')).status).toBe(201)
  })

  it('counts afresh when deleted and made again', async () => {
    const spec = {
      spaces: ['root:team-d'],
      resources: [{ group: '', resource: 'configmaps', max: 1 }],
    }
    expect((await hub.call('POST', QUOTAS, quota('team-d', spec))).status).toBe(201)
    expect((await create('root:team-d', 'one')).status).toBe(201)
    expect((await create('root:team-d', 'two')).status).toBe(403)
    expect((await hub.call('DELETE', `${QUOTAS}/team-d`)).status).toBe(200)
    expect((await create('root:team-d', 'two')).status).toBe(201)
    const wider = { ...spec, resources: [{ group: '', resource: 'configmaps', max: 3 }] }
    expect((await hub.call('POST', QUOTAS, quota('team-d', wider))).status).toBe(201)
    expect((await create('root:team-d', 'three')).status).toBe(201)
    expect((await create('root:team-d', 'four')).status).toBe(403)
  })
})

describe('a create in a space no SpaceQuota holds', () => {
  it('costs no store request for quotas once the list is known', async () => {
    const counted: string[] = []
    const kvGet = hub.deps.kv.get.bind(hub.deps.kv)
    const list = hub.deps.objects.list.bind(hub.deps.objects)
    hub.deps.kv.get = (ns, key) => {
      if (ns.startsWith('quota-usage/')) counted.push(`${ns}/${key}`)
      return kvGet(ns, key)
    }
    hub.deps.objects.list = (o) => {
      if (o.resource === 'spacequotas') counted.push('list')
      return list(o)
    }
    try {
      expect((await create('root:free', 'warm')).status).toBe(201)
      counted.length = 0
      for (let i = 0; i < 5; i++) expect((await create('root:free', `f-${i}`)).status).toBe(201)
      for (let i = 0; i < 5; i++)
        expect((await hub.call('DELETE', `${cms('root:free')}/f-${i}`)).status).toBe(200)
      expect(counted).toEqual([])
    } finally {
      hub.deps.kv.get = kvGet
      hub.deps.objects.list = list
    }
  })
})
