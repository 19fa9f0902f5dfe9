import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'
import { ndjsonReader } from '../../helpers/ndjson-reader.ts'

let hub: TestHub
const CMS = '/clusters/root/api/v1/namespaces/w/configmaps'

beforeAll(async () => {
  hub = await createTestHub()
  await hub.call('POST', '/clusters/root/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'w' },
  })
})
afterAll(() => hub.close())

/** Opens a watch and returns a reader of its newline-delimited events. */
async function openWatch(query: string, path = CMS) {
  const ctrl = new AbortController()
  const res = await hub.app.request(`${BASE}${path}?watch=true&${query}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    signal: ctrl.signal,
  })
  return { res, ...ndjsonReader(res.body!) }
}

describe('watch', () => {
  it('streams ADDED, MODIFIED and DELETED after the list resourceVersion', async () => {
    await hub.call('POST', CMS, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'before' },
    })
    const list = await hub.call('GET', CMS)
    const w = await openWatch(`resourceVersion=${list.body.metadata.resourceVersion}`)
    expect(w.res.headers.get('content-encoding')).toBe('identity')
    await hub.call('POST', CMS, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'x' },
      data: { a: '1' },
    })
    await hub.call(
      'PATCH',
      `${CMS}/x`,
      { data: { a: '2' } },
      { contentType: 'application/merge-patch+json' }
    )
    await hub.call('DELETE', `${CMS}/x`)
    const events = [await w.next(), await w.next(), await w.next()]
    await w.close()
    expect(events.map((e) => [e.type, e.object.metadata.name])).toEqual([
      ['ADDED', 'x'],
      ['MODIFIED', 'x'],
      ['DELETED', 'x'],
    ])
    expect(events[1].object.data).toEqual({ a: '2' })
  })
  it('starts with the current objects as ADDED when no resourceVersion is given, honouring selectors', async () => {
    await hub.call('POST', CMS, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'sel', labels: { pick: 'me' } },
    })
    const w = await openWatch('labelSelector=pick%3Dme')
    const first = await w.next()
    await w.close()
    expect(first).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'sel' } } })
  })
  it('ends with an ERROR event carrying 410 Expired for a too-old resourceVersion', async () => {
    await hub.store.sweepChangeLog({ retentionMs: 0, now: Date.now() + 60_000 })
    const w = await openWatch('resourceVersion=1')
    const ev = await w.next()
    await w.close()
    expect(ev).toMatchObject({
      type: 'ERROR',
      object: { kind: 'Status', code: 410, reason: 'Expired' },
    })
  })
  it('watches one resource across every space on /clusters/*', async () => {
    await hub.call('POST', '/clusters/root/apis/tenancy.kcp.io/v1alpha1/workspaces', {
      apiVersion: 'tenancy.kcp.io/v1alpha1',
      kind: 'Workspace',
      metadata: { name: 'other' },
    })
    const rv = (await hub.call('GET', '/clusters/*/api/v1/configmaps')).body.metadata
      .resourceVersion
    const w = await openWatch(`resourceVersion=${rv}`, '/clusters/*/api/v1/configmaps')
    await hub.call('POST', '/clusters/root:other/api/v1/namespaces/default/configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'far' },
    })
    await hub.call('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'near' } })
    const events = [await w.next(), await w.next()]
    await w.close()
    expect(events.map((e) => e.object.metadata.name).sort()).toEqual(['far', 'near'])
    const clusters = new Set(events.map((e) => e.object.metadata.annotations['kcp.io/cluster']))
    expect(clusters.size).toBe(2)
  })
})
