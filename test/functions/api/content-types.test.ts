/**
 * Content-Type negotiation of request bodies (issue 11, "Lenient input"): creates, updates and
 * DeleteOptions accept JSON, YAML and Kubernetes protobuf only (a missing type means JSON, as in
 * kube); anything else is 415 UnsupportedMediaType in kube's words and nothing is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
beforeAll(async () => {
  hub = await createTestHub()
  expect((await hub.call('POST', CMS, cm('existing'))).status).toBe(201)
})
afterAll(() => hub.close())

const CMS = '/clusters/root/api/v1/namespaces/default/configmaps'
const cm = (name: string, a = '1') => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { a },
})
const UNKNOWN_FORMAT =
  'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf'

const REFUSED = [
  'text/plain',
  'application/xml',
  'text/xml',
  'application/octet-stream',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  'application/merge-patch+json',
  'application/json-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
  'text/yaml',
  'json',
  'application/json/x',
]

/** Raw request, so the Content-Type header can be absent or anything at all. */
async function send(method: string, path: string, body: string | undefined, type?: string) {
  const headers: Record<string, string> = { authorization: 'Bearer test-admin-token' }
  if (type !== undefined) headers['content-type'] = type
  const res = await hub.app.request(`http://hub.test${path}`, {
    method,
    headers,
    // Bytes, not a string: a string body would make Request add `text/plain` itself.
    ...(body !== undefined ? { body: new TextEncoder().encode(body) } : {}),
  })
  return { status: res.status, body: (await res.json()) as any }
}

describe('create and update', () => {
  for (const type of REFUSED) {
    it(`refuses ${type} with 415 and stores nothing`, async () => {
      const created = await send('POST', CMS, JSON.stringify(cm('refused')), type)
      expect(created.status).toBe(415)
      expect(created.body).toMatchObject({
        kind: 'Status',
        reason: 'UnsupportedMediaType',
        code: 415,
        message: UNKNOWN_FORMAT,
      })
      expect((await hub.call('GET', `${CMS}/refused`)).status).toBe(404)
      const before = (await hub.call('GET', `${CMS}/existing`)).body
      const updated = await send(
        'PUT',
        `${CMS}/existing`,
        JSON.stringify(cm('existing', '2')),
        type
      )
      expect(updated.status).toBe(415)
      expect((await hub.call('GET', `${CMS}/existing`)).body).toEqual(before)
    })
  }

  it('refuses an empty create body of an unknown type with 415 (the type is checked first)', async () => {
    expect((await send('POST', CMS, '', 'text/plain')).status).toBe(415)
  })

  it('reads a body without Content-Type as JSON', async () => {
    const res = await send('POST', CMS, JSON.stringify(cm('untyped')), undefined)
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual({ a: '1' })
  })

  it('accepts JSON with parameters, any case, and YAML', async () => {
    const json = await send(
      'POST',
      CMS,
      JSON.stringify(cm('charset')),
      'Application/JSON; charset=utf-8'
    )
    expect(json.status).toBe(201)
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yaml-body\ndata:\n  a: "1"\n'
    expect((await send('POST', CMS, yaml, 'application/yaml; charset=utf-8')).status).toBe(201)
  })

  it('refuses a patch content type on the scale subresource PUT', async () => {
    const res = await send(
      'PUT',
      '/clusters/root/apis/apps/v1/namespaces/default/deployments/none/scale',
      '{"spec":{"replicas":1}}',
      'text/plain'
    )
    expect(res.status).toBe(415)
  })
})

describe('delete', () => {
  it('refuses DeleteOptions of an unknown type with 415 and deletes nothing', async () => {
    await hub.call('POST', CMS, cm('keep'))
    const res = await send('DELETE', `${CMS}/keep`, '{"kind":"DeleteOptions"}', 'text/plain')
    expect(res.status).toBe(415)
    expect(res.body.reason).toBe('UnsupportedMediaType')
    expect((await hub.call('GET', `${CMS}/keep`)).status).toBe(200)
    const all = await send('DELETE', CMS, '{"kind":"DeleteOptions"}', 'application/xml')
    expect(all.status).toBe(415)
    expect((await hub.call('GET', `${CMS}/keep`)).status).toBe(200)
  })

  it('ignores the type of an empty body, as kube', async () => {
    await hub.call('POST', CMS, cm('gone'))
    expect((await send('DELETE', `${CMS}/gone`, undefined, 'text/plain')).status).toBe(200)
  })

  it('accepts DeleteOptions as JSON or YAML', async () => {
    await hub.call('POST', CMS, cm('gone-json'))
    await hub.call('POST', CMS, cm('gone-yaml'))
    const json = await send(
      'DELETE',
      `${CMS}/gone-json`,
      '{"kind":"DeleteOptions"}',
      'application/json'
    )
    expect(json.status).toBe(200)
    const yaml = await send(
      'DELETE',
      `${CMS}/gone-yaml`,
      'kind: DeleteOptions\n',
      'application/yaml'
    )
    expect(yaml.status).toBe(200)
  })
})

describe('patch', () => {
  it('keeps its own list: object media types are 415 on PATCH, patch types decode', async () => {
    for (const type of ['application/json', 'application/yaml', 'text/plain', undefined]) {
      const res = await send('PATCH', `${CMS}/existing`, '{"data":{"b":"2"}}', type)
      expect(res.status).toBe(415)
    }
    const ok = await send(
      'PATCH',
      `${CMS}/existing`,
      '{"data":{"b":"2"}}',
      'application/merge-patch+json; charset=utf-8'
    )
    expect(ok.status).toBe(200)
  })
})
