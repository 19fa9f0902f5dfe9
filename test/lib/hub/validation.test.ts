/**
 * The identity check of a body about to be written (`asKubeObject`): typed clients (the Python
 * client's models) send creates and updates without apiVersion/kind, which kube fills from the URL
 * for its built-in types; a body naming another group, version or kind is refused with 400, and a
 * custom resource still needs its kind. Checked on the function and through the routes (create,
 * update, read back) on a dynalite-backed hub.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from '../../../lib/errors.ts'
import type { Target } from '../../../lib/hub/target.ts'
import { asKubeObject } from '../../../lib/hub/validation.ts'
import { resourcesFromCrd } from '../../../lib/kube/crd.ts'
import { createRegistry } from '../../../lib/kube/registry.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

const registry = createRegistry([])
const space = { id: 'root', path: 'root', phase: 'Ready' } as Target['space']

function target(group: string, resource: string, version: string): Target {
  const info = registry.byResource(group, resource)
  if (!info) throw new Error(`no ${group}/${resource}`)
  return { space, info, version, namespace: 'ns' }
}

const widgetCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
    ],
  },
}

function refusal(t: Target, body: unknown): { code: number; message: string } {
  try {
    asKubeObject(t, body)
  } catch (e) {
    if (e instanceof ApiError) return { code: e.code, message: e.message }
    throw e
  }
  throw new Error(`accepted ${JSON.stringify(body)}`)
}

describe('asKubeObject on built-in types', () => {
  const cm = target('', 'configmaps', 'v1')
  const deploy = target('apps', 'deployments', 'v1')

  it('fills a missing apiVersion and kind from the URL', () => {
    const obj = asKubeObject(cm, { metadata: { name: 'a' }, data: { k: 'v' } })
    expect(obj).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a' },
      data: { k: 'v' },
    })
    expect(asKubeObject(deploy, { metadata: { name: 'd' } })).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
    })
  })

  it('takes null as absent, as Go decodes it, and fills either field alone', () => {
    expect(asKubeObject(cm, { apiVersion: null, kind: null, metadata: null })).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {},
    })
    expect(asKubeObject(cm, { kind: 'ConfigMap' }).apiVersion).toBe('v1')
    expect(asKubeObject(deploy, { apiVersion: 'apps/v1' }).kind).toBe('Deployment')
    expect(asKubeObject(deploy, { apiVersion: 'apps/' }).apiVersion).toBe('apps/v1')
  })

  it('refuses a body whose apiVersion or kind contradicts the URL', () => {
    expect(refusal(cm, { apiVersion: 'v2', kind: 'ConfigMap' })).toEqual({
      code: 400,
      message: 'the API version in the data (v2) does not match the expected API version (v1)',
    })
    expect(refusal(cm, { apiVersion: 'apps/v1' }).code).toBe(400)
    expect(refusal(deploy, { apiVersion: 'extensions/' }).code).toBe(400)
    expect(refusal(cm, { kind: 'Secret' })).toEqual({
      code: 400,
      message: 'the kind in the data (Secret) does not match the expected kind (ConfigMap)',
    })
    expect(refusal(cm, { apiVersion: 'v1', kind: 'Secret' }).code).toBe(400)
  })

  it('refuses type fields that are not strings and bodies that are not objects', () => {
    expect(refusal(cm, { kind: 7 })).toEqual({
      code: 400,
      message: 'kind must be a string, not a number',
    })
    expect(refusal(cm, { apiVersion: ['v1'] }).code).toBe(400)
    expect(refusal(cm, []).code).toBe(400)
    expect(refusal(cm, 'x').code).toBe(400)
    expect(refusal(cm, { metadata: 'x' }).code).toBe(400)
  })
})

describe('asKubeObject on custom resources', () => {
  const info = resourcesFromCrd(widgetCrd)
  if (!info) throw new Error('widget CRD did not parse')
  const t: Target = { space, info, version: 'v1', namespace: 'ns' }

  it('accepts a complete body and requires kind and apiVersion, as kube decodes unstructured', () => {
    expect(asKubeObject(t, { apiVersion: 'example.com/v1', kind: 'Widget' }).kind).toBe('Widget')
    expect(refusal(t, { apiVersion: 'example.com/v1' })).toEqual({
      code: 400,
      message: "Object 'Kind' is missing in the request body",
    })
    expect(refusal(t, { kind: 'Widget' }).message).toBe(
      'the API version in the data () does not match the expected API version (example.com/v1)'
    )
  })
})

describe('typed-model writes through the routes', () => {
  let hub: TestHub
  const CMS = '/clusters/root/api/v1/namespaces/typed/configmaps'
  beforeAll(async () => {
    hub = await createTestHub()
    await hub.call('POST', '/clusters/root/api/v1/namespaces', { metadata: { name: 'typed' } })
  })
  afterAll(() => hub.close())

  it('creates a namespace and a config map without apiVersion/kind, stored with both', async () => {
    const ns = await hub.call('GET', '/clusters/root/api/v1/namespaces/typed')
    expect(ns.status).toBe(200)
    expect(ns.body).toMatchObject({ apiVersion: 'v1', kind: 'Namespace' })
    const made = await hub.call('POST', CMS, { metadata: { name: 'm' }, data: { a: '1' } })
    expect(made.status).toBe(201)
    expect(made.body).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', data: { a: '1' } })
    const read = await hub.call('GET', `${CMS}/m`)
    expect(read.body).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', data: { a: '1' } })
  })

  it('replaces without apiVersion/kind and refuses a contradicting kind with a 400 Status', async () => {
    const put = await hub.call('PUT', `${CMS}/m`, { metadata: { name: 'm' }, data: { a: '2' } })
    expect(put.status).toBe(200)
    expect(put.body).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', data: { a: '2' } })
    const wrong = await hub.call('PUT', `${CMS}/m`, {
      kind: 'Secret',
      metadata: { name: 'm' },
      data: { a: '3' },
    })
    expect(wrong.status).toBe(400)
    expect(wrong.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' })
    const bad = await hub.call('POST', CMS, { apiVersion: 'apps/v1', metadata: { name: 'x' } })
    expect(bad.status).toBe(400)
    expect((await hub.call('GET', `${CMS}/x`)).status).toBe(404)
    expect((await hub.call('GET', `${CMS}/m`)).body.data).toEqual({ a: '2' })
  })
})
