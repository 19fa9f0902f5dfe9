/**
 * Client strings too long for a DynamoDB key (an object name or namespace of 3,000 characters, a
 * space path, a forged continue token, an ownerReference uid) get the answer kube gives, never a
 * 500: reads, deletes, updates and patches of a name no object can have are 404 NotFound, creates
 * (POST, server-side apply) 422 Invalid naming the field, lists and watches are empty, and nothing
 * is written (the store's resourceVersion does not move).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeContinue } from '../../../lib/store/continue-token.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

const LONG = 'a'.repeat(3000)
const CMS = '/api/v1/namespaces/default/configmaps'
const MERGE = { contentType: 'application/merge-patch+json' }
const APPLY = { contentType: 'application/apply-patch+yaml' }

let hub: TestHub
beforeAll(async () => {
  hub = await createTestHub()
  expect((await hub.call('POST', CMS, cm('keep'))).status).toBe(201)
})
afterAll(() => hub.close())

function cm(name: string, namespace = 'default') {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data: { a: '1' } }
}

/** Sends the request and checks that it wrote nothing: the store's resourceVersion is unchanged. */
async function unchanged(
  method: string,
  path: string,
  body?: unknown,
  opts: { contentType?: string } = {}
) {
  const before = await hub.store.objects.currentRv()
  const res = await hub.call(method, path, body, opts)
  expect(await hub.store.objects.currentRv()).toBe(before)
  return res
}

function expectStatus(res: { status: number; body: any }, code: number, reason: string) {
  expect(res.status).toBe(code)
  expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', code, reason })
}

function expectInvalid(res: { status: number; body: any }, field: string) {
  expectStatus(res, 422, 'Invalid')
  expect(res.body.details.causes.map((c: { field: string }) => c.field)).toContain(field)
}

describe('an object name longer than any object name', () => {
  it('is 404 NotFound to get, delete, update and patch', async () => {
    for (const path of [`${CMS}/${LONG}`, `${CMS}/${LONG}/status`]) {
      const res = await unchanged('GET', path)
      expectStatus(res, 404, 'NotFound')
      expect(res.body.details.name).toBe(LONG)
    }
    expectStatus(await unchanged('DELETE', `${CMS}/${LONG}`), 404, 'NotFound')
    // kube answers a PUT of an absent object NotFound (ConfigMaps are not created on update)
    expectStatus(await unchanged('PUT', `${CMS}/${LONG}`, cm(LONG)), 404, 'NotFound')
    const patch = { data: { b: '2' } }
    expectStatus(await unchanged('PATCH', `${CMS}/${LONG}`, patch, MERGE), 404, 'NotFound')
    const scale = '/apis/apps/v1/namespaces/default/deployments/'
    expectStatus(await unchanged('GET', `${scale}${LONG}/scale`), 404, 'NotFound')
  })

  it('is 422 Invalid on metadata.name to create, also by server-side apply', async () => {
    expectInvalid(await unchanged('POST', CMS, cm(LONG)), 'metadata.name')
    const apply = `${CMS}/${LONG}?fieldManager=test`
    expectInvalid(await unchanged('PATCH', apply, cm(LONG), APPLY), 'metadata.name')
  })

  it('is 422 for a kind whose names have no length rule (RBAC), and 404 to get', async () => {
    const roles = '/apis/rbac.authorization.k8s.io/v1/clusterroles'
    const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' }
    const res = await unchanged('POST', roles, { ...role, metadata: { name: LONG } })
    expectInvalid(res, 'metadata.name')
    expect(res.body.details.causes[0].reason).toBe('FieldValueTooLong')
    expectStatus(await unchanged('GET', `${roles}/${LONG}`), 404, 'NotFound')
  })

  it('selects nothing in a list or a watch by metadata.name', async () => {
    const selector = `fieldSelector=metadata.name%3D${LONG}`
    const list = await unchanged('GET', `${CMS}?${selector}`)
    expect(list.status).toBe(200)
    expect(list.body.items).toEqual([])
    const watch = await unchanged('GET', `${CMS}?watch=1&timeoutSeconds=1&${selector}`)
    expect(watch.status).toBe(200)
    expect(watch.body).toBe('')
  })
})

describe('a namespace that is not a DNS label', () => {
  const IN_LONG = `/api/v1/namespaces/${LONG}/configmaps`

  it('is 404 NotFound to get, delete, update and patch an object in it', async () => {
    expectStatus(await unchanged('GET', `${IN_LONG}/x`), 404, 'NotFound')
    expectStatus(await unchanged('DELETE', `${IN_LONG}/x`), 404, 'NotFound')
    expectStatus(await unchanged('PUT', `${IN_LONG}/x`, cm('x', LONG)), 404, 'NotFound')
    const patch = { data: { b: '2' } }
    expectStatus(await unchanged('PATCH', `${IN_LONG}/x`, patch, MERGE), 404, 'NotFound')
    expectStatus(await unchanged('GET', `/api/v1/namespaces/${LONG}`), 404, 'NotFound')
    expectStatus(await unchanged('DELETE', `/api/v1/namespaces/${LONG}`), 404, 'NotFound')
  })

  it('is 422 Invalid on metadata.namespace to create in it', async () => {
    expectInvalid(await unchanged('POST', IN_LONG, cm('x', LONG)), 'metadata.namespace')
    const apply = `${IN_LONG}/x?fieldManager=test`
    expectInvalid(await unchanged('PATCH', apply, cm('x', LONG), APPLY), 'metadata.namespace')
    const bad = await unchanged('POST', '/api/v1/namespaces/Bad_NS/configmaps', cm('x', 'Bad_NS'))
    expectInvalid(bad, 'metadata.namespace')
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: LONG } }
    expectInvalid(await unchanged('POST', '/api/v1/namespaces', ns), 'metadata.name')
  })

  it('lists, watches and deletes as an empty collection', async () => {
    const list = await unchanged('GET', IN_LONG)
    expect(list.status).toBe(200)
    expect(list.body.items).toEqual([])
    const watch = await unchanged('GET', `${IN_LONG}?watch=1&timeoutSeconds=1`)
    expect(watch.status).toBe(200)
    expect(watch.body).toBe('')
    const gone = await unchanged('DELETE', IN_LONG)
    expect(gone.status).toBe(200)
    expect(gone.body.items).toEqual([])
  })
})

describe('a space path or id too long for a key', () => {
  it('is 404 NotFound for the workspace, whatever the verb', async () => {
    for (const space of [`root:${LONG}`, LONG, `root:espw:${LONG}`]) {
      const base = `/clusters/${space}${CMS}`
      for (const [method, path, body] of [
        ['GET', base],
        ['GET', `${base}/x`],
        ['POST', base, cm('x')],
        ['DELETE', `${base}/x`],
      ] as const) {
        const res = await unchanged(method, path, body)
        expectStatus(res, 404, 'NotFound')
        expect(res.body.details).toMatchObject({ group: 'tenancy.kcp.io', name: space })
      }
    }
  })

  it('is 422 Invalid as the name of a new Workspace', async () => {
    const ws = {
      apiVersion: 'tenancy.kcp.io/v1alpha1',
      kind: 'Workspace',
      metadata: { name: LONG },
    }
    const res = await unchanged('POST', '/apis/tenancy.kcp.io/v1alpha1/workspaces', ws)
    expectInvalid(res, 'metadata.name')
  })
})

describe('request input that never names a key', () => {
  it('refuses a continue token naming a key outside its list with 400', async () => {
    const rv = await hub.store.objects.currentRv()
    const q = JSON.stringify(['root', '', 'configmaps', 'default'])
    for (const key of [
      { pk: 'o#root#/configmaps', sk: `default/${LONG}` },
      { pk: 'o#other#/configmaps', sk: 'default/keep' },
      { pk: 'o#root#/configmaps', sk: 'kube-system/keep' },
    ]) {
      const token = encodeContinue({ v: 1, rv, q, ...key })
      const res = await unchanged('GET', `${CMS}?limit=1&continue=${token}`)
      expectStatus(res, 400, 'BadRequest')
      expect(res.body.message).toBe('continue key is not valid for this list')
    }
  })

  it('refuses a path segment with malformed percent-encoding with 400', async () => {
    expectStatus(await unchanged('GET', `${CMS}/%E0%A4%A`), 400, 'BadRequest')
    expectStatus(await unchanged('GET', `/clusters/%E0%A4%A${CMS}`), 400, 'BadRequest')
  })

  it('stores an object whose ownerReference uid is too long to index', async () => {
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'keep', uid: LONG }
    const owned = { ...cm('owned'), metadata: { name: 'owned', ownerReferences: [ref] } }
    expect((await hub.call('POST', CMS, owned)).status).toBe(201)
    expect((await hub.call('DELETE', `${CMS}/owned`)).status).toBe(200)
    expect((await hub.call('GET', `${CMS}/keep`)).status).toBe(200)
  })
})
