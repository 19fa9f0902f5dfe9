/**
 * Verbs through app.request(): a method is served only when the resource's discovery verbs list
 * its verb (Namespaces have no `deletecollection`, reviews only `create`), else kube's 405 Status,
 * with nothing changed; discovery, OpenAPI and version documents answer GET and HEAD only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resourceVerb } from '../../../functions/api/verbs.ts'
import { BUILTIN_RESOURCES } from '../../../lib/kube/builtin-resources.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
const TENANT = 'verbs-tenant-token'
const SPACE = '/clusters/root:verbs'
beforeAll(async () => {
  hub = await createTestHub()
  const ws = {
    apiVersion: 'tenancy.kcp.io/v1alpha1',
    kind: 'Workspace',
    metadata: { name: 'verbs' },
  }
  expect((await hub.call('POST', '/apis/tenancy.kcp.io/v1alpha1/workspaces', ws)).status).toBe(201)
  await hub.mintToken(TENANT, ['root:verbs'])
  for (const prefix of ['', SPACE]) {
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'keep' } }
    expect((await hub.call('POST', `${prefix}/api/v1/namespaces`, ns)).status).toBe(201)
  }
})
afterAll(() => hub.close())

const KUBE_405 = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'the server does not allow this method on the requested resource',
  reason: 'MethodNotAllowed',
  details: {},
  code: 405,
}

async function namespaces(prefix: string): Promise<Record<string, unknown>> {
  const res = await hub.call('GET', `${prefix}/api/v1/namespaces`)
  return Object.fromEntries(
    res.body.items.map((n: any) => [n.metadata.name, n.metadata.deletionTimestamp ?? null])
  )
}

describe('verbs a resource does not list', () => {
  it('refuses a collection delete of namespaces with 405, as admin and as tenant, deleting none', async () => {
    for (const [prefix, token] of [
      ['', undefined],
      [SPACE, undefined],
      [SPACE, TENANT],
    ] as const) {
      const before = await namespaces(prefix)
      expect(Object.keys(before)).toEqual(expect.arrayContaining(['default', 'keep']))
      const res = await hub.call('DELETE', `${prefix}/api/v1/namespaces`, {}, { token })
      expect([res.status, res.body]).toEqual([405, KUBE_405])
      const bare = await hub.call('DELETE', `${prefix}/api/v1/namespaces`, undefined, { token })
      expect(bare.status).toBe(405)
      await hub.settle()
      expect(await namespaces(prefix)).toEqual(before)
    }
  })

  it('still deletes one namespace and collections of other kinds', async () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }
    expect((await hub.call('POST', '/api/v1/namespaces/keep/configmaps', cm)).status).toBe(201)
    const all = await hub.call('DELETE', '/api/v1/namespaces/keep/configmaps')
    expect([all.status, all.body.items.length]).toEqual([200, 1])
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'gone' } }
    expect((await hub.call('POST', '/api/v1/namespaces', ns)).status).toBe(201)
    expect((await hub.call('DELETE', '/api/v1/namespaces/gone')).status).toBe(200)
  })

  it('answers a review only to create', async () => {
    const path = '/apis/authentication.k8s.io/v1/selfsubjectreviews'
    for (const method of ['GET', 'DELETE']) {
      const res = await hub.call(method, path)
      expect([method, res.status, res.body]).toEqual([method, 405, KUBE_405])
    }
    expect((await hub.call('PUT', `${path}/x`, {})).body).toEqual(KUBE_405)
    expect((await hub.call('POST', `${path}/x/status`, {})).body).toEqual(KUBE_405)
    expect((await hub.call('POST', path, { kind: 'SelfSubjectReview' })).status).toBe(201)
  })

  it('uses kube wording for methods no resource path serves', async () => {
    for (const [method, path] of [
      ['PUT', '/api/v1/namespaces/keep/configmaps'],
      ['PATCH', '/api/v1/namespaces/keep/configmaps'],
      ['POST', '/api/v1/namespaces/keep'],
      ['DELETE', '/api/v1/namespaces/keep/status'],
      ['POST', '/apis/apps/v1/namespaces/keep/deployments/x/scale'],
    ] as const)
      expect([method, path, (await hub.call(method, path, {})).body]).toEqual([
        method,
        path,
        KUBE_405,
      ])
  })

  it('maps methods to verbs as kube routes them', () => {
    expect(resourceVerb('GET', false, false)).toBe('list')
    expect(resourceVerb('GET', false, true)).toBe('watch')
    expect(resourceVerb('GET', true, true)).toBe('get')
    expect(resourceVerb('POST', false, false)).toBe('create')
    expect(resourceVerb('DELETE', false, false)).toBe('deletecollection')
    expect(resourceVerb('DELETE', true, false)).toBe('delete')
    expect(resourceVerb('PUT', true, false)).toBe('update')
    expect(resourceVerb('PATCH', true, false)).toBe('patch')
    expect(resourceVerb('PUT', false, false)).toBeUndefined()
    expect(resourceVerb('POST', true, false)).toBeUndefined()
  })

  it('lists the verbs kube lists: all eight, but namespaces have no deletecollection', () => {
    const verbs = (r: string) => BUILTIN_RESOURCES.find((i) => i.resource === r)?.verbs
    expect(verbs('namespaces')).toEqual([
      'create',
      'delete',
      'get',
      'list',
      'patch',
      'update',
      'watch',
    ])
    const STANDARD = [
      'create',
      'delete',
      'deletecollection',
      'get',
      'list',
      'patch',
      'update',
      'watch',
    ]
    for (const r of ['configmaps', 'nodes', 'services', 'pods', 'deployments', 'leases'])
      expect(verbs(r)).toEqual(STANDARD)
  })
})

const DOCUMENTS = [
  '/api',
  '/apis',
  '/api/v1',
  '/apis/apps',
  '/apis/apps/v1',
  '/openapi/v2',
  '/openapi/v3',
  '/openapi/v3/api/v1',
  '/version',
]

describe('discovery, OpenAPI and version documents', () => {
  it('refuse every method but GET and HEAD with 405, with and without /clusters', async () => {
    for (const prefix of ['', '/clusters/root', SPACE])
      for (const doc of DOCUMENTS)
        for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
          const res = await hub.call(method, `${prefix}${doc}`, {})
          expect([method, prefix + doc, res.status, res.body]).toEqual([
            method,
            prefix + doc,
            405,
            KUBE_405,
          ])
        }
  })

  it('answer GET and HEAD', async () => {
    for (const prefix of ['', SPACE])
      for (const doc of DOCUMENTS)
        for (const method of ['GET', 'HEAD'])
          expect([method, doc, (await hub.call(method, `${prefix}${doc}`)).status]).toEqual([
            method,
            doc,
            200,
          ])
  })

  it('refuse a tenant the same way in its space', async () => {
    const res = await hub.call('POST', `${SPACE}/api`, {}, { token: TENANT })
    expect([res.status, res.body]).toEqual([405, KUBE_405])
  })
})
