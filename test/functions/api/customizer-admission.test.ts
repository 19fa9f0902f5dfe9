import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
const CZS = '/clusters/root/apis/edge.kcp.io/v1alpha1/namespaces/cz/customizers'

const customizer = (name: string, replacements: unknown) => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'Customizer',
  metadata: { name },
  replacements,
})

beforeAll(async () => {
  hub = await createTestHub()
  await hub.call('POST', '/clusters/root/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'cz' },
  })
})
afterAll(() => hub.close())

function expectInvalid(res: { status: number; body: any }, field: string) {
  expect(res.status).toBe(422)
  expect(res.body).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422 })
  expect(res.body.details.causes.map((c: any) => c.field)).toEqual([field])
  expect(res.body.message).toContain(`${field}: Invalid value:`)
}

describe('Customizer admission', () => {
  it('refuses a create with an invalid JSONPath or a value that is not JSON, storing nothing', async () => {
    const badPath = await hub.call(
      'POST',
      CZS,
      customizer('bad-path', [{ path: '$.spec[?(@.a)]', value: '1' }])
    )
    expectInvalid(badPath, 'replacements[0].path')
    const badValue = await hub.call(
      'POST',
      CZS,
      customizer('bad-value', [
        { path: '$.spec.replicas', value: '2' },
        { path: '$.data.x', value: 'unquoted' },
      ])
    )
    expectInvalid(badValue, 'replacements[1].value')
    expect((await hub.call('GET', `${CZS}/bad-path`)).status).toBe(404)
    expect((await hub.call('GET', `${CZS}/bad-value`)).status).toBe(404)
  })

  it('refuses the same through update, merge patch, JSON patch and apply', async () => {
    const created = await hub.call(
      'POST',
      CZS,
      customizer('good', [{ path: '$.data.x', value: '"ok"' }])
    )
    expect(created.status).toBe(201)

    const put = await hub.call('PUT', `${CZS}/good`, {
      ...created.body,
      replacements: [{ path: '$.data.x', value: 'nope' }],
    })
    expectInvalid(put, 'replacements[0].value')

    const merge = await hub.call(
      'PATCH',
      `${CZS}/good`,
      { replacements: [{ path: '$..', value: '1' }] },
      { contentType: 'application/merge-patch+json' }
    )
    expectInvalid(merge, 'replacements[0].path')

    const jsonPatch = await hub.call(
      'PATCH',
      `${CZS}/good`,
      [{ op: 'replace', path: '/replacements/0/value', value: '{' }],
      { contentType: 'application/json-patch+json' }
    )
    expectInvalid(jsonPatch, 'replacements[0].value')

    const apply = await hub.call(
      'PATCH',
      `${CZS}/good?fieldManager=t&force=true`,
      customizer('good', [{ path: '$.data[', value: '1' }]),
      { contentType: 'application/apply-patch+yaml' }
    )
    expectInvalid(apply, 'replacements[0].path')

    const stored = await hub.call('GET', `${CZS}/good`)
    expect(stored.body.replacements).toEqual([{ path: '$.data.x', value: '"ok"' }])
  })

  it('accepts parameterized replacements of a Customizer that asks for expansion', async () => {
    const res = await hub.call('POST', CZS, {
      ...customizer('params', [{ path: '$.spec.replicas', value: '%(replicas)' }]),
      metadata: { name: 'params', annotations: { 'edge.kcp.io/expand-parameters': 'true' } },
    })
    expect(res.status).toBe(201)
  })
})
