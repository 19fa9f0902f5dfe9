import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
beforeAll(async () => {
  hub = await createTestHub()
  await hub.call('POST', '/clusters/root/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'default' },
  })
})
afterAll(() => hub.close())

const schema = {
  openAPIV3Schema: {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: { size: { type: 'integer' }, color: { type: 'string' } },
      },
    },
  },
}
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wg'] },
    versions: [
      { name: 'v1', served: true, storage: true, schema },
      { name: 'v2', served: true, storage: false, schema },
    ],
  },
}
const WIDGETS = (v: string) => `/clusters/root/apis/example.com/${v}/namespaces/default/widgets`

describe('custom resources', () => {
  it('serves a CRD at every served version with conversion None', async () => {
    const made = await hub.call(
      'POST',
      '/clusters/root/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      crd
    )
    expect(made.status).toBe(201)
    expect(made.body.status.conditions.map((c: any) => c.type)).toContain('Established')
    const w = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w1' },
      spec: { size: 3 },
    }
    expect((await hub.call('POST', WIDGETS('v1'), w)).status).toBe(201)
    const at2 = await hub.call('GET', `${WIDGETS('v2')}/w1`)
    expect(at2.body.apiVersion).toBe('example.com/v2')
    expect(at2.body.spec).toEqual({ size: 3 })
    const group = await hub.call('GET', '/clusters/root/apis/example.com')
    expect(group.body.preferredVersion.version).toBe('v2')
  })
  it('validates custom resources against their schema', async () => {
    const bad = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w2' },
      spec: { size: 'big' },
    }
    const res = await hub.call('POST', WIDGETS('v1'), bad)
    expect(res.status).toBe(422)
    expect(JSON.stringify(res.body.details.causes)).toContain('spec.size')
  })
  it('is not served in other spaces', async () => {
    expect((await hub.call('GET', '/clusters/root:espw/apis/example.com/v1/widgets')).status).toBe(
      404
    )
  })
  it('takes its custom resources with it when deleted', async () => {
    expect(
      (
        await hub.call(
          'DELETE',
          '/clusters/root/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com'
        )
      ).status
    ).toBe(200)
    await hub.settle()
    expect(
      (
        await hub.call(
          'GET',
          '/clusters/root/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com'
        )
      ).status
    ).toBe(404)
    await hub.call(
      'POST',
      '/clusters/root/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      crd
    )
    const list = await hub.call('GET', WIDGETS('v1'))
    expect(list.body.items).toEqual([])
  })
})
