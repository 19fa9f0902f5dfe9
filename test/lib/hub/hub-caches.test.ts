/**
 * Two hubs in one process, over two tables, share nothing through their caches or kind hooks: a
 * token known to hub A (cached there by a request) is refused by hub B, a CRD hub A serves (its
 * registry cached there) is unknown to hub B at once, and a kind hook registered on hub A never
 * runs on hub B. Each hub still serves what it stores itself at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let a: TestHub
let b: TestHub
beforeAll(async () => {
  ;[a, b] = await Promise.all([createTestHub(), createTestHub()])
})
afterAll(() => Promise.all([a?.close(), b?.close()]))

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Cluster',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object' } },
      },
    ],
  },
}
const CRDS = '/clusters/root/apis/apiextensions.k8s.io/v1/customresourcedefinitions'
const GADGETS = '/clusters/root/apis/example.com/v1/gadgets'

describe('two hubs in one process', () => {
  it('refuses on hub B a token hub A knows and has just accepted', async () => {
    await a.mintToken('only-on-a', ['root'])
    const onA = await a.call('GET', '/clusters/root/api/v1/namespaces', undefined, {
      token: 'only-on-a',
    })
    expect(onA.status).toBe(200)
    const onB = await b.call('GET', '/clusters/root/api/v1/namespaces', undefined, {
      token: 'only-on-a',
    })
    expect(onB.status).toBe(401)
    expect(onB.body).toMatchObject({ kind: 'Status', code: 401 })
  })

  it('serves a CRD on the hub that stored it at once, and never on the other', async () => {
    expect((await b.call('GET', GADGETS)).status).toBe(404)
    expect((await a.call('POST', CRDS, crd)).status).toBe(201)
    expect((await a.call('GET', GADGETS)).status).toBe(200)
    const onB = await b.call('GET', GADGETS)
    expect(onB.status).toBe(404)
    expect(onB.body).toMatchObject({ kind: 'Status', code: 404 })
    const discovery = await b.call('GET', '/clusters/root/apis/example.com/v1')
    expect(discovery.status).toBe(404)
  })

  it('runs a kind hook only on the hub it was registered with', async () => {
    a.deps.hooks.register('', 'configmaps', {
      prepareCreate: (_ctx, obj) => ({
        ...obj,
        metadata: { ...obj.metadata, labels: { ...obj.metadata.labels, hooked: 'a' } },
      }),
    })
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: {} }
    for (const hub of [a, b]) {
      const made = await hub.call('POST', '/clusters/root/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'hooks' },
      })
      expect(made.status).toBe(201)
    }
    const onA = await a.call('POST', '/clusters/root/api/v1/namespaces/hooks/configmaps', cm)
    const onB = await b.call('POST', '/clusters/root/api/v1/namespaces/hooks/configmaps', cm)
    expect(onA.status).toBe(201)
    expect(onA.body.metadata.labels).toEqual({ hooked: 'a' })
    expect(onB.status).toBe(201)
    expect(onB.body.metadata.labels).toBeUndefined()
  })

  it('keeps the built-in kind hooks on both hubs', async () => {
    for (const hub of [a, b]) {
      const ns = await hub.call('GET', '/clusters/root/api/v1/namespaces/hooks')
      expect(ns.body.status).toEqual({ phase: 'Active' })
      expect(ns.body.spec).toEqual({ finalizers: ['kubernetes'] })
    }
  })
})
