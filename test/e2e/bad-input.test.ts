/**
 * Bad input against the real local stack, with kubectl and plain fetch: malformed JSON and YAML
 * (400), unknown group/kind (404), an invalid EdgePlacement field (422 naming it), a stale
 * resourceVersion (409), a body naming another namespace (400), an object over 1 MiB (413), a
 * body of 3.5 or 11 MiB on the hub and the edge API (the Worker's 413, relayed by the front), no
 * or an unknown token (401), and a token scoped to another space (403). After each rejected write
 * the object is checked to be absent (or unchanged) in the store itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KubeStatus } from '../../lib/errors.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { ok, okJson } from './helpers/kubectl.ts'
import { configMap, namespace } from './helpers/manifests.ts'
import { type SharedStack, sharedStack } from './helpers/shared-stack.ts'
import { openStackStore, type StoreAccess } from './helpers/store-access.ts'

const NS = 'bad'
const CMS = `/clusters/root/api/v1/namespaces/${NS}/configmaps`
let stack: SharedStack
let store: StoreAccess

beforeAll(async () => {
  stack = await sharedStack()
  store = openStackStore(stack.info())
  ok(await stack.kubectl(['create', '-f', '-'], { input: namespace(NS) }))
})
afterAll(async () => {
  store?.close()
  await stack?.close()
})

const cmKey = (name: string, namespace = NS) => ({
  cluster: 'root',
  group: '',
  resource: 'configmaps',
  namespace,
  name,
})

async function expectStatus(res: Response, code: number, reason: string): Promise<KubeStatus> {
  const body = (await res.json()) as KubeStatus
  expect({ status: res.status, code: body.code, reason: body.reason, kind: body.kind }).toEqual({
    status: code,
    code,
    reason,
    kind: 'Status',
  })
  return body
}

const post = (
  path: string,
  body: string,
  contentType = 'application/json',
  token?: string | null
) =>
  stack.api(path, {
    method: 'POST',
    body,
    headers: { 'content-type': contentType },
    ...(token !== undefined ? { token } : {}),
  })

describe('malformed bodies', () => {
  it('malformed JSON is 400 and stores nothing', async () => {
    const res = await post(CMS, '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"broken"')
    const status = await expectStatus(res, 400, 'BadRequest')
    expect(status.message).toContain('JSON')
    expect(await store.objects.get(cmKey('broken'))).toBeUndefined()
  })

  it('malformed YAML is 400 and stores nothing', async () => {
    const res = await post(
      CMS,
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: broken-yaml\n  data: [x',
      'application/yaml'
    )
    await expectStatus(res, 400, 'BadRequest')
    expect(await store.objects.get(cmKey('broken-yaml'))).toBeUndefined()
  })

  it('kubectl refuses a malformed manifest', async () => {
    const r = await stack.kubectl(['create', '-f', '-'], {
      input: '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {',
    })
    expect(r.code).not.toBe(0)
    expect(
      (
        await store.objects.list({
          cluster: 'root',
          group: '',
          resource: 'configmaps',
          namespace: NS,
        })
      ).items
    ).toEqual([])
  })
})

describe('unknown kinds and groups', () => {
  it('404 for an unknown group, version or resource', async () => {
    await expectStatus(
      await stack.api('/clusters/root/apis/nope.example.com/v1/things'),
      404,
      'NotFound'
    )
    await expectStatus(
      await stack.api('/clusters/root/api/v1/namespaces/bad/widgets'),
      404,
      'NotFound'
    )
    const res = await post(
      '/clusters/root/apis/nope.example.com/v1/things',
      JSON.stringify({ apiVersion: 'nope.example.com/v1', kind: 'Thing', metadata: { name: 't' } })
    )
    await expectStatus(res, 404, 'NotFound')
  })

  it('kubectl reports an unknown kind', async () => {
    const r = await stack.kubectl(['create', '-f', '-'], {
      input: JSON.stringify({
        apiVersion: 'nope.example.com/v1',
        kind: 'Thing',
        metadata: { name: 't' },
      }),
    })
    expect(r.code).not.toBe(0)
    expect(r.stderr).toMatch(
      /no matches for kind "Thing"|the server could not find the requested resource/
    )
  })
})

describe('validation', () => {
  it('an invalid EdgePlacement field is 422 naming the field, with kubectl and fetch', async () => {
    const bad = {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'EdgePlacement',
      metadata: { name: 'bad-ep' },
      spec: { locationSelectors: 'everywhere' },
    }
    const res = await post(
      '/clusters/root/apis/edge.kcp.io/v1alpha1/edgeplacements',
      JSON.stringify(bad)
    )
    const status = await expectStatus(res, 422, 'Invalid')
    expect(status.details?.causes?.map((c) => c.field)).toContain('spec.locationSelectors')
    const r = await stack.kubectl(['create', '-f', '-'], { input: JSON.stringify(bad) })
    expect(r.code).not.toBe(0)
    expect(r.stderr).toContain('spec.locationSelectors')
    expect(
      await store.objects.get({
        cluster: 'root',
        group: 'edge.kcp.io',
        resource: 'edgeplacements',
        namespace: '',
        name: 'bad-ep',
      })
    ).toBeUndefined()
  })

  it('a body naming another namespace than the URL is 400', async () => {
    const body = JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'misplaced', namespace: 'elsewhere' },
    })
    const status = await expectStatus(await post(CMS, body), 400, 'BadRequest')
    expect(status.message).toContain('namespace')
    expect(await store.objects.get(cmKey('misplaced'))).toBeUndefined()
    expect(await store.objects.get(cmKey('misplaced', 'elsewhere'))).toBeUndefined()
  })

  it('an object over 1 MiB is 413 and stores nothing', async () => {
    const body = JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'huge' },
      data: { blob: 'x'.repeat(1_200_000) },
    })
    await expectStatus(await post(CMS, body), 413, 'RequestEntityTooLarge')
    expect(await store.objects.get(cmKey('huge'))).toBeUndefined()
  })
})

describe('bodies past the 3 MiB limit, through the local front', () => {
  it.each([
    ['the hub API', CMS],
    ['the edge API', '/edge/v1/bootstrap'],
  ])("%s answers 3.5 and 11 MiB bodies with the Worker's 413", async (_, path) => {
    for (const mib of [3.5, 11]) {
      const body = `{"blob":"${'x'.repeat(Math.floor(mib * 1024 * 1024))}"}`
      const status = await expectStatus(await post(path, body), 413, 'RequestEntityTooLarge')
      expect(status.message).toContain('the limit is 3145728 bytes')
    }
  })
})

describe('concurrency', () => {
  it('a stale resourceVersion is 409 Conflict and leaves the newer object', async () => {
    ok(
      await stack.kubectl(['create', '-f', '-'], { input: configMap(NS, 'contended', { v: '1' }) })
    )
    const first = okJson<KubeObject & { data?: Record<string, string> }>(
      await stack.kubectl(['get', 'cm', 'contended', '-n', NS, '-o', 'json'])
    )
    ok(
      await stack.kubectl([
        'patch',
        'cm',
        'contended',
        '-n',
        NS,
        '--type',
        'merge',
        '-p',
        '{"data":{"v":"2"}}',
      ])
    )
    const stale = { ...first, data: { v: 'stale' } }
    const res = await stack.api(`${CMS}/contended`, {
      method: 'PUT',
      body: JSON.stringify(stale),
      headers: { 'content-type': 'application/json' },
    })
    await expectStatus(res, 409, 'Conflict')
    const r = await stack.kubectl(['replace', '-f', '-'], { input: JSON.stringify(stale) })
    expect(r.code).not.toBe(0)
    expect(r.stderr).toContain('Conflict')
    const stored = await store.objects.get(cmKey('contended'))
    expect((stored as { data?: unknown } | undefined)?.data).toEqual({ v: '2' })
  })
})

describe('authentication and authorization', () => {
  it('no token or an unknown token is 401', async () => {
    await expectStatus(
      await stack.api('/clusters/root/api/v1/namespaces', { token: null }),
      401,
      'Unauthorized'
    )
    await expectStatus(
      await stack.api('/clusters/root/api/v1/namespaces', { token: 'not-a-token' }),
      401,
      'Unauthorized'
    )
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'anon' } })
    await expectStatus(await post(CMS, body, 'application/json', null), 401, 'Unauthorized')
    expect(await store.objects.get(cmKey('anon'))).toBeUndefined()
    const r = await stack.kubectl(['--token', 'not-a-token', 'get', 'namespaces'])
    expect(r.code).not.toBe(0)
    expect(r.stderr).toMatch(/Unauthorized|must be logged in/)
    expect((await stack.api('/healthz', { token: null })).status).toBe(200)
  })

  it('a token scoped to another space is 403 here and works there', async () => {
    ok(
      await stack.kubectl(['create', '-f', '-'], {
        input: JSON.stringify({
          apiVersion: 'tenancy.kcp.io/v1alpha1',
          kind: 'Workspace',
          metadata: { name: 'bad-input-team' },
        }),
      })
    )
    const token = `scoped-${crypto.randomUUID()}`
    await store.mintToken(token, { name: 'alice', kind: 'user', spaces: ['root:bad-input-team'] })
    const denied = await expectStatus(
      await stack.api('/clusters/root/api/v1/namespaces', { token }),
      403,
      'Forbidden'
    )
    expect(denied.message).toContain('root')
    const body = JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'intruder' },
    })
    await expectStatus(await post(CMS, body, 'application/json', token), 403, 'Forbidden')
    expect(await store.objects.get(cmKey('intruder'))).toBeUndefined()
    const r = await stack.kubectl(['--token', token, 'get', 'configmaps', '-n', NS])
    expect(r.code).not.toBe(0)
    expect(r.stderr).toContain('Forbidden')
    expect(
      (await stack.api('/clusters/root:bad-input-team/api/v1/namespaces', { token })).status
    ).toBe(200)
  })
})
