import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
beforeAll(async () => {
  hub = await createTestHub()
})
afterAll(() => hub.close())

const cm = (name: string, data: Record<string, string> = { a: '1' }, namespace = 'default') => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace },
  data,
})

describe('auth', () => {
  it('refuses a request without a token with 401', async () => {
    const res = await hub.call('GET', '/clusters/root/api/v1/namespaces', undefined, {
      token: null,
    })
    expect(res.status).toBe(401)
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 })
  })
  it('refuses an unknown token with 401', async () => {
    const res = await hub.call('GET', '/clusters/root/api/v1/namespaces', undefined, {
      token: 'nope',
    })
    expect(res.status).toBe(401)
  })
  it('gives 403 to a token scoped to another space, and 200 inside its scope', async () => {
    await hub.mintToken('espw-only', ['root:espw'])
    const other = await hub.call('GET', '/clusters/root/api/v1/namespaces', undefined, {
      token: 'espw-only',
    })
    expect(other.status).toBe(403)
    expect(other.body.reason).toBe('Forbidden')
    const own = await hub.call('GET', '/clusters/root:espw/api/v1/namespaces', undefined, {
      token: 'espw-only',
    })
    expect(own.status).toBe(200)
    const cross = await hub.call('GET', '/clusters/*/api/v1/configmaps', undefined, {
      token: 'espw-only',
    })
    expect(cross.status).toBe(403)
  })
  it('answers health without a token', async () => {
    const res = await hub.call('GET', '/healthz', undefined, { token: null })
    expect(res.status).toBe(200)
  })
})

describe('a space that does not exist', () => {
  const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'

  it("serves a fresh space's discovery, so the request itself gets the one 404", async () => {
    const legacy = await hub.call('GET', '/clusters/root:nosuch/api', undefined, {
      accept: AGGREGATED,
    })
    expect(legacy.status).toBe(200)
    const core = legacy.body.items[0].versions[0].resources.map((r: any) => r.resource)
    expect(core).toContain('namespaces')
    const groups = await hub.call('GET', '/clusters/root:nosuch/apis')
    expect(groups.status).toBe(200)
    expect(groups.body.groups.map((g: any) => g.name)).toContain('apps')
    expect((await hub.call('GET', '/clusters/root:nosuch/apis/apps/v1')).status).toBe(200)
    expect((await hub.call('GET', '/clusters/root:nosuch/version')).status).toBe(200)
    const list = await hub.call('GET', '/clusters/root:nosuch/api/v1/namespaces')
    expect(list.status).toBe(404)
    expect(list.body.message).toBe('workspaces.tenancy.kcp.io "root:nosuch" not found')
  })

  it('tells nothing more to a token that could not reach it', async () => {
    await hub.mintToken('espw-scoped', ['root:espw', 'root:espw:*'])
    const token = { token: 'espw-scoped' }
    for (const path of ['/clusters/root:nosuch/api', '/clusters/abcdefghijklmnop/api']) {
      const res = await hub.call('GET', path, undefined, token)
      expect([path, res.status]).toEqual([path, 403])
    }
    const reachable = await hub.call('GET', '/clusters/root:espw:nosuch/apis', undefined, token)
    expect(reachable.status).toBe(200)
  })
})

describe('discovery', () => {
  it('serves legacy discovery for /api and /api/v1', async () => {
    expect((await hub.call('GET', '/clusters/root/api')).body).toMatchObject({
      kind: 'APIVersions',
      versions: ['v1'],
    })
    const v1 = await hub.call('GET', '/clusters/root/api/v1')
    expect(v1.body.kind).toBe('APIResourceList')
    const cms = v1.body.resources.find((r: any) => r.name === 'configmaps')
    expect(cms).toMatchObject({ kind: 'ConfigMap', namespaced: true, shortNames: ['cm'] })
  })
  it('serves aggregated discovery when asked', async () => {
    const accept =
      'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json'
    const res = await hub.call('GET', '/clusters/root/apis', undefined, { accept })
    expect(res.headers.get('content-type')).toContain('as=APIGroupDiscoveryList')
    const edge = res.body.items.find((g: any) => g.metadata.name === 'edge.kcp.io')
    expect(edge.versions[0].resources.map((r: any) => r.resource)).toContain('edgeplacements')
  })
  it('reads the Accept header by preference: a clause with q=0 is not asked for', async () => {
    const accept =
      'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList;q=0,application/json'
    const res = await hub.call('GET', '/clusters/root/apis', undefined, { accept })
    expect(res.body.kind).toBe('APIGroupList')
  })
  it('serves an OpenAPI v3 index whose URLs keep the cluster prefix', async () => {
    const res = await hub.call('GET', '/clusters/root/openapi/v3')
    expect(res.body.paths['api/v1'].serverRelativeURL).toMatch(
      /^\/clusters\/root\/openapi\/v3\/api\/v1\?hash=/
    )
    const doc = await hub.call('GET', res.body.paths['apis/edge.kcp.io/v1alpha1'].serverRelativeURL)
    expect(doc.status).toBe(200)
    expect(doc.body.openapi).toMatch(/^3\./)
  })
})

describe('objects', () => {
  it('has a default namespace from the bootstrap, and a ConfigMap goes in it', async () => {
    const ns = await hub.call('GET', '/clusters/root/api/v1/namespaces/default')
    expect(ns.status).toBe(200)
    expect(ns.body.status.phase).toBe('Active')
    const res = await hub.call(
      'POST',
      '/clusters/root/api/v1/namespaces/default/configmaps',
      cm('one')
    )
    expect(res.status).toBe(201)
    expect(res.body.metadata.uid).toBeTruthy()
    expect(res.body.metadata.resourceVersion).toMatch(/^\d+$/)
    expect(res.body.metadata.annotations['kcp.io/cluster']).toBe('root')
    const again = await hub.call(
      'POST',
      '/clusters/root/api/v1/namespaces/default/configmaps',
      cm('one')
    )
    expect(again.status).toBe(409)
    expect(again.body.reason).toBe('AlreadyExists')
  })
  it('refuses a stale resourceVersion with 409 Conflict and keeps the object', async () => {
    const created = await hub.call(
      'POST',
      '/clusters/root/api/v1/namespaces/default/configmaps',
      cm('stale')
    )
    const rv = created.body.metadata.resourceVersion
    const upd = await hub.call('PUT', '/clusters/root/api/v1/namespaces/default/configmaps/stale', {
      ...cm('stale', { a: '2' }),
      metadata: { name: 'stale', namespace: 'default', resourceVersion: rv },
    })
    expect(upd.status).toBe(200)
    const stale = await hub.call(
      'PUT',
      '/clusters/root/api/v1/namespaces/default/configmaps/stale',
      {
        ...cm('stale', { a: '3' }),
        metadata: { name: 'stale', namespace: 'default', resourceVersion: rv },
      }
    )
    expect(stale.status).toBe(409)
    expect(stale.body.reason).toBe('Conflict')
    const now = await hub.call('GET', '/clusters/root/api/v1/namespaces/default/configmaps/stale')
    expect(now.body.data).toEqual({ a: '2' })
  })
  it('refuses malformed JSON and YAML with 400 and stores nothing', async () => {
    const bad = await hub.call(
      'POST',
      '/clusters/root/api/v1/namespaces/default/configmaps',
      '{"apiVersion": "v1", ',
      {}
    )
    expect(bad.status).toBe(400)
    const yaml = await hub.call(
      'POST',
      '/clusters/root/api/v1/namespaces/default/configmaps',
      'a: [1, 2\n',
      { contentType: 'application/yaml' }
    )
    expect(yaml.status).toBe(400)
    const list = await hub.call('GET', '/clusters/root/api/v1/namespaces/default/configmaps')
    expect(list.body.items.map((i: any) => i.metadata.name).sort()).toEqual(['one', 'stale'])
  })
  it('refuses a body whose namespace differs from the URL', async () => {
    const res = await hub.call(
      'POST',
      '/clusters/root/api/v1/namespaces/default/configmaps',
      cm('x', {}, 'other')
    )
    expect(res.status).toBe(400)
    expect(res.body.message).toContain('namespace')
  })
  it('answers 404 for an unknown resource or group', async () => {
    expect((await hub.call('GET', '/clusters/root/apis/nope.example.com/v1/things')).status).toBe(
      404
    )
    expect((await hub.call('GET', '/clusters/root/api/v1/widgets')).status).toBe(404)
  })
  it('refuses an invalid EdgePlacement with 422 naming the field', async () => {
    const body = {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'EdgePlacement',
      metadata: { name: 'bad' },
      spec: {
        locationSelectors: [
          { matchExpressions: [{ key: 'env', operator: 'Maybe', values: ['x'] }] },
        ],
      },
    }
    const res = await hub.call(
      'POST',
      '/clusters/root/apis/edge.kcp.io/v1alpha1/edgeplacements',
      body
    )
    expect(res.status).toBe(422)
    expect(res.body.reason).toBe('Invalid')
    expect(JSON.stringify(res.body.details.causes)).toContain(
      'spec.locationSelectors[0].matchExpressions[0].operator'
    )
    expect(
      (await hub.call('GET', '/clusters/root/apis/edge.kcp.io/v1alpha1/edgeplacements/bad')).status
    ).toBe(404)
  })
  it('refuses an object over 1 MiB with 413 and stores nothing', async () => {
    const big = cm('big', { blob: 'x'.repeat(1024 * 1024 + 10) })
    const res = await hub.call('POST', '/clusters/root/api/v1/namespaces/default/configmaps', big)
    expect(res.status).toBe(413)
    expect(
      (await hub.call('GET', '/clusters/root/api/v1/namespaces/default/configmaps/big')).status
    ).toBe(404)
  })
})
