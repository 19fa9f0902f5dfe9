import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveNamedWatch } from '../../../functions/api/named-watch.ts'
import type { ResourcePath } from '../../../lib/kube/request-path.ts'
import { ADMIN_TOKEN, BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'
import { ndjsonReader } from '../../helpers/ndjson-reader.ts'

let hub: TestHub
const NS = '/api/v1/namespaces/lw'
const CMS = `${NS}/configmaps`

const cm = (name: string, data: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
})

beforeAll(async () => {
  hub = await createTestHub()
  await hub.call('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'lw' },
  })
  await hub.call('POST', CMS, cm('one'))
  await hub.call('POST', CMS, cm('two'))
})
afterAll(() => hub.close())

async function openWatch(target: string) {
  const res = await hub.app.request(`${BASE}${target}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  })
  expect(res.status).toBe(200)
  return ndjsonReader(res.body!)
}

describe('legacy watch paths (ruby-kubeclient)', () => {
  it.each([
    `/api/v1/watch/namespaces/lw/configmaps`,
    `/clusters/root/api/v1/watch/namespaces/lw/configmaps`,
  ])('%s watches the collection', async (target) => {
    const w = await openWatch(target)
    const name = `new-${target.length}`
    await hub.call('POST', CMS, cm(name))
    const seen: string[] = []
    for (let e = await w.next(); e?.object.metadata.name !== name; e = await w.next())
      seen.push(`${e.type} ${e.object.metadata.name}`)
    expect(seen).toEqual(expect.arrayContaining(['ADDED one', 'ADDED two']))
    await w.close()
  })

  it('a named legacy path watches that one object only', async () => {
    await hub.call('POST', CMS, cm('solo'))
    const w = await openWatch(`/api/v1/watch/namespaces/lw/configmaps/solo`)
    expect(await w.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'solo' } } })
    await hub.call('POST', CMS, cm('solo-not'))
    await hub.call('DELETE', `${CMS}/solo`)
    expect(await w.next()).toMatchObject({
      type: 'DELETED',
      object: { metadata: { name: 'solo' } },
    })
    await w.close()
  })

  it('a cluster-scoped legacy path works too (watch/namespaces/<name>)', async () => {
    const w = await openWatch('/api/v1/watch/namespaces/lw')
    expect(await w.next()).toMatchObject({
      type: 'ADDED',
      object: { kind: 'Namespace', metadata: { name: 'lw' } },
    })
    await w.close()
  })

  it('GET of one object with watch=true is a get, as kube serves it', async () => {
    const res = await hub.call('GET', `${CMS}/two?watch=true`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'two' } })
  })

  it('a field selector must select the named object', async () => {
    const ok = await openWatch(
      `/api/v1/watch/namespaces/lw/configmaps/one?fieldSelector=metadata.name%3Done`
    )
    expect(await ok.next()).toMatchObject({ object: { metadata: { name: 'one' } } })
    await ok.close()
    const bad = await hub.call(
      'GET',
      `/api/v1/watch/namespaces/lw/configmaps/one?fieldSelector=metadata.name%3Dtwo`
    )
    expect(bad.status).toBe(400)
    expect(bad.body.message).toBe("fieldSelector metadata.name doesn't match requested name")
  })

  it('only GET is served on a watch path', async () => {
    const res = await hub.call('DELETE', `/api/v1/watch/namespaces/lw/configmaps/one`)
    expect(res.status).toBe(405)
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed' })
    expect((await hub.call('GET', `${CMS}/one`)).status).toBe(200)
  })

  it('subresources have no watch path', async () => {
    const res = await hub.call('GET', '/apis/apps/v1/watch/namespaces/lw/deployments/d/status')
    expect(res.status).toBe(404)
  })
})

describe('resolveNamedWatch', () => {
  const path: ResourcePath = { kind: 'resource', group: '', version: 'v1', resource: 'configmaps' }
  it('leaves ordinary requests alone', () => {
    const q = { watch: false }
    expect(resolveNamedWatch('GET', { ...path, name: 'a' }, q)).toEqual({
      path: { ...path, name: 'a' },
      query: q,
    })
    expect(resolveNamedWatch('PUT', { ...path, name: 'a' }, { watch: true }).path.name).toBe('a')
  })
  it('escapes the name in the selector it makes', () => {
    const out = resolveNamedWatch('GET', { ...path, name: 'a,b=c', watch: true }, {})
    expect(out).toEqual({ path, query: { watch: true, fieldSelector: 'metadata.name=a\\,b\\=c' } })
  })
  it('keeps a given selector that names the object among other terms', () => {
    const fieldSelector = 'metadata.namespace=x,metadata.name==a'
    expect(
      resolveNamedWatch('GET', { ...path, name: 'a', watch: true }, { fieldSelector }).query
    ).toEqual({ watch: true, fieldSelector })
  })
})
