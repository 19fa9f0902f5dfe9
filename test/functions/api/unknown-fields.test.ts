/**
 * Unknown fields through every write verb (create, update, merge/JSON/strategic patch, apply,
 * status writes), as kube-apiserver's structural pruning treats them: with Warn (kubectl's
 * default) the write succeeds with a `Warning` per field and the field is not stored; with Ignore
 * it is dropped silently; with Strict the write is refused (400) and nothing changes. A read back
 * never shows a dropped field, and no managedFields entry names one. Fields a schema preserves
 * (`x-kubernetes-preserve-unknown-fields`) are kept. Fields an older release stored unpruned fail
 * no write, even a Strict one that sends them back, and are gone after it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHubClient } from '../../../lib/hub/client.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
const NS = '/clusters/root/api/v1/namespaces'
const CMS = `${NS}/uf/configmaps`
const DEPLOYS = '/clusters/root/apis/apps/v1/namespaces/uf/deployments'
const EPS = '/clusters/root/apis/edge.kcp.io/v1alpha1/edgeplacements'
const CRDS = '/clusters/root/apis/apiextensions.k8s.io/v1/customresourcedefinitions'
const GADGETS = '/clusters/root/apis/example.com/v1/namespaces/uf/gadgets'
const APPLY = { contentType: 'application/apply-patch+yaml' }
const MERGE = { contentType: 'application/merge-patch+json' }
const JSON_PATCH = { contentType: 'application/json-patch+json' }
const STRATEGIC = { contentType: 'application/strategic-merge-patch+json' }

beforeAll(async () => {
  hub = await createTestHub()
  await hub.call('POST', NS, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'uf' } })
})
afterAll(() => hub.close())

const cm = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { a: '1' },
  ...extra,
})
const ep = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'EdgePlacement',
  metadata: { name },
  spec,
})
const deployment = (name: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'c', image: 'nginx:1' }] },
    },
  },
})

const get = async (path: string) => (await hub.call('GET', path)).body
const ownership = (obj: any) => JSON.stringify(obj.metadata.managedFields ?? [])
/** The object read back has none of `fields` (names at any depth), nor does any owner. */
function expectDropped(obj: any, ...fields: string[]) {
  const text = JSON.stringify({ ...obj, metadata: { ...obj.metadata, managedFields: [] } })
  for (const f of fields) {
    expect(text).not.toContain(`"${f}"`)
    expect(ownership(obj)).not.toContain(`"f:${f}"`)
  }
}

describe('create', () => {
  it('Warn (the default) stores the object without its unknown fields, warning of each', async () => {
    const body = cm('warned', { bogus: 1 })
    const res = await hub.call('POST', CMS, { ...body, metadata: { name: 'warned', metaBogus: 1 } })
    expect(res.status).toBe(201)
    expect(res.headers.get('warning')).toContain('unknown field \\"bogus\\"')
    expect(res.headers.get('warning')).toContain('unknown field \\"metadata.metaBogus\\"')
    expectDropped(res.body, 'bogus', 'metaBogus')
    const stored = await get(`${CMS}/warned`)
    expectDropped(stored, 'bogus', 'metaBogus')
    expect(stored.data).toEqual({ a: '1' })
    expect(ownership(stored)).toContain('"f:data"')
  })

  it('Ignore drops them without a warning; Strict refuses and stores nothing', async () => {
    const ignored = await hub.call('POST', `${CMS}?fieldValidation=Ignore`, cm('quiet', { x: 1 }))
    expect(ignored.status).toBe(201)
    expect(ignored.headers.get('warning')).toBeNull()
    expectDropped(await get(`${CMS}/quiet`), 'x')
    const strict = await hub.call('POST', `${CMS}?fieldValidation=Strict`, cm('st', { x: 1 }))
    expect(strict.status).toBe(400)
    expect(strict.body.message).toBe('strict decoding error: unknown field "x"')
    expect((await hub.call('GET', `${CMS}/st`)).status).toBe(404)
  })

  it('an EdgePlacement with an unknown spec field is stored without it', async () => {
    const res = await hub.call('POST', EPS, ep('p1', { downsync: [{ x: 1 }] }))
    expect(res.status).toBe(201)
    expect(res.headers.get('warning')).toContain('spec.downsync')
    expectDropped(await get(`${EPS}/p1`), 'downsync')
  })
})

describe('update and patches', () => {
  it('PUT drops unknown fields and their ownership', async () => {
    const current = await get(`${CMS}/warned`)
    const res = await hub.call('PUT', `${CMS}/warned`, { ...current, bogus: 2, data: { a: '2' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('warning')).toContain('bogus')
    const stored = await get(`${CMS}/warned`)
    expectDropped(stored, 'bogus')
    expect(stored.data).toEqual({ a: '2' })
  })

  it('merge, JSON and strategic patches drop unknown fields, in list items too', async () => {
    const merged = await hub.call('PATCH', `${CMS}/warned`, { bogus: 1, data: { b: '1' } }, MERGE)
    expect(merged.status).toBe(200)
    expect(merged.headers.get('warning')).toContain('bogus')
    const json = [{ op: 'add', path: '/other', value: { deep: 1 } }]
    expect((await hub.call('PATCH', `${CMS}/warned`, json, JSON_PATCH)).status).toBe(200)
    const stored = await get(`${CMS}/warned`)
    expectDropped(stored, 'bogus', 'other', 'deep')
    expect(stored.data).toEqual({ a: '2', b: '1' })

    expect((await hub.call('POST', DEPLOYS, deployment('d'))).status).toBe(201)
    const containers = [{ name: 'c', image: 'nginx:2', bogusC: 1 }]
    const patch = { spec: { bogusSpec: 1, template: { spec: { containers } } } }
    const res = await hub.call('PATCH', `${DEPLOYS}/d`, patch, STRATEGIC)
    expect(res.status).toBe(200)
    expect(res.headers.get('warning')).toContain('spec.template.spec.containers[0].bogusC')
    const d = await get(`${DEPLOYS}/d`)
    expectDropped(d, 'bogusSpec', 'bogusC')
    expect(d.spec.template.spec.containers).toMatchObject([{ name: 'c', image: 'nginx:2' }])
  })

  it('Strict refuses every verb and changes nothing', async () => {
    const before = await get(`${CMS}/warned`)
    const q = `${CMS}/warned?fieldValidation=Strict&fieldManager=strict`
    const answers = [
      await hub.call('PUT', q, { ...before, bogus: 1 }),
      await hub.call('PATCH', q, { bogus: 1 }, MERGE),
      await hub.call('PATCH', q, [{ op: 'add', path: '/bogus', value: 1 }], JSON_PATCH),
      await hub.call('PATCH', q, { bogus: 1 }, STRATEGIC),
      await hub.call('PATCH', q, { ...cm('warned', { bogus: 1 }), data: undefined }, APPLY),
    ]
    for (const res of answers) {
      expect(res.status).toBe(400)
      expect(res.body.message).toBe('strict decoding error: unknown field "bogus"')
    }
    expect((await get(`${CMS}/warned`)).metadata.resourceVersion).toBe(
      before.metadata.resourceVersion
    )
  })
})

describe('server-side apply', () => {
  it('creates and updates without unknown fields, owning none of them', async () => {
    const path = `${CMS}/applied?fieldManager=tester`
    const created = await hub.call('PATCH', path, cm('applied', { bogus: { x: 1 } }), APPLY)
    expect(created.status).toBe(201)
    expect(created.headers.get('warning')).toContain('bogus')
    expectDropped(await get(`${CMS}/applied`), 'bogus', 'x')
    const body = cm('applied', { data: { a: '2' }, other: 1 })
    const updated = await hub.call('PATCH', path, body, APPLY)
    expect(updated.status).toBe(200)
    const stored = await get(`${CMS}/applied`)
    expectDropped(stored, 'bogus', 'other')
    expect(stored.data).toEqual({ a: '2' })
    expect(ownership(stored)).toContain('"f:a"')
  })
})

describe('status subresource', () => {
  it('PUT, merge patch and apply on /status drop unknown status fields', async () => {
    const status = `${EPS}/p1/status`
    const current = await get(`${EPS}/p1`)
    const put = await hub.call('PUT', status, {
      ...current,
      status: { matchingLocationCount: 2, bogusStatus: 1 },
    })
    expect(put.status).toBe(200)
    expect(put.headers.get('warning')).toContain('status.bogusStatus')
    await hub.call('PATCH', status, { status: { mergedBogus: 1 } }, MERGE)
    const applied = { ...ep('p1', {}), status: { specGeneration: 1, appliedBogus: 1 } }
    expect(
      (await hub.call('PATCH', `${status}?fieldManager=st&force=true`, applied, APPLY)).status
    ).toBe(200)
    const stored = await get(`${EPS}/p1`)
    expectDropped(stored, 'bogusStatus', 'mergedBogus', 'appliedBogus')
    expect(stored.status).toMatchObject({ matchingLocationCount: 2, specGeneration: 1 })
  })
})

describe('schemas that preserve unknown fields', () => {
  it('keeps the fields x-kubernetes-preserve-unknown-fields allows, drops the rest', async () => {
    const spec = {
      type: 'object',
      properties: {
        size: { type: 'integer' },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    }
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', properties: { spec } } },
          },
        ],
      },
    }
    expect((await hub.call('POST', CRDS, crd)).status).toBe(201)
    const gadget = {
      apiVersion: 'example.com/v1',
      kind: 'Gadget',
      metadata: { name: 'g' },
      spec: { size: 1, free: { any: { thing: 1 } }, bogus: 1 },
    }
    const res = await hub.call('POST', GADGETS, gadget)
    expect(res.status).toBe(201)
    expect(res.headers.get('warning')).toBe('299 - "unknown field \\"spec.bogus\\""')
    const stored = await get(`${GADGETS}/g`)
    expect(stored.spec).toEqual({ size: 1, free: { any: { thing: 1 } } })
    expect(ownership(stored)).not.toContain('"f:bogus"')
  })
})

describe('objects stored with unknown fields by an older release', () => {
  it('a Strict write that sends them back succeeds, and they are gone after it', async () => {
    const root = await createHubClient(hub.deps, { fieldManager: 't' }).space('root')
    const key = {
      cluster: root.id,
      group: '',
      resource: 'configmaps',
      namespace: 'uf',
      name: 'old',
    }
    await hub.store.objects.create(key, {
      ...cm('old', { legacy: { x: 1 } }),
      metadata: {
        name: 'old',
        namespace: 'uf',
        uid: 'u-old',
        creationTimestamp: '2026-01-01T00:00:00Z',
        managedFields: [
          {
            manager: 'old-kubectl',
            operation: 'Update',
            apiVersion: 'v1',
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:data': { 'f:a': {} }, 'f:legacy': { '.': {}, 'f:x': {} } },
          },
        ],
      },
    } as never)
    const current = await get(`${CMS}/old`)
    expect(current.legacy).toEqual({ x: 1 })
    const q = `${CMS}/old?fieldValidation=Strict`
    const res = await hub.call('PUT', q, { ...current, data: { a: '2' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('warning')).toBeNull()
    const stored = await get(`${CMS}/old`)
    expectDropped(stored, 'legacy', 'x')
    expect(stored.data).toEqual({ a: '2' })
    // A Strict patch that brings the field back is refused as any unknown field is.
    const again = await hub.call('PATCH', q, { legacy: 1 }, MERGE)
    expect(again.status).toBe(400)
  })
})
