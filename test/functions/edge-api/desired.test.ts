import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNodeApp } from '../../../functions/node-server.ts'
import { DesiredStateSchema } from '../../../lib/edge/protocol.ts'
import { bootstrapHub } from '../../../lib/hub/bootstrap.ts'
import { bumpEpoch } from '../../../lib/store/epochs.ts'
import type { DesiredEntry } from '../../../lib/store/projection-types.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { ADMIN_TOKEN, BASE } from '../../helpers/hub.ts'
import { createInventory, createSyncTarget, edgeToken } from './edge-setup.ts'

const counter = createRequestCounter()
let store: TestStore
let app: ReturnType<typeof createNodeApp>['app']
let deps: ReturnType<typeof createNodeApp>['deps']
let settle: () => Promise<void>

async function call(
  method: string,
  path: string,
  body?: unknown,
  opts: { token?: string; ifNoneMatch?: string } = {}
) {
  const headers: Record<string, string> = { authorization: `Bearer ${opts.token ?? ADMIN_TOKEN}` }
  if (opts.ifNoneMatch !== undefined) headers['if-none-match'] = opts.ifNoneMatch
  if (body !== undefined) headers['content-type'] = 'application/json'
  const res = await app.request(`${BASE}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  })
  const text = await res.text()
  return {
    status: res.status,
    headers: res.headers,
    text,
    body: text ? JSON.parse(text) : undefined,
  }
}

const cm = (name: string, data: Record<string, string>): DesiredEntry => ({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespace: 'app',
  name,
  body: {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'app' },
    data,
  } as never,
})
const ns: DesiredEntry = {
  group: '',
  version: 'v1',
  resource: 'namespaces',
  namespace: '',
  name: 'app',
  body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'app' } },
}

let mailbox: string
let spaceId: string
let token: string
const path = () => `/edge/v1/mailboxes/${mailbox}/desired`

beforeAll(async () => {
  store = await createTestStore({ counter })
  const projections = store.projections
  ;({ app, deps, settle } = createNodeApp({
    objects: store.objects,
    kv: store.kv,
    projections: {
      ...projections,
      getManifest: (m) => {
        manifestReads++
        return projections.getManifest(m)
      },
    },
  }))
  await bootstrapHub(deps, { adminToken: ADMIN_TOKEN, baseUrl: BASE })
  await createInventory(call, 'imw-d')
  ;({ mailbox, spaceId } = await createSyncTarget(call, 'imw-d', 'florin'))
  token = await edgeToken({ store }, mailbox)
})
afterAll(async () => {
  await settle()
  await store.close()
})

let manifestReads = 0

/** A manifest write as the translate step makes it: the `manifests` epoch moves after it. */
async function write(desired: DesiredEntry[], expectedVersion: number | null, id = spaceId) {
  const w = await deps.projections.writeManifest(id, { desired, expectedVersion, now: new Date() })
  await bumpEpoch(deps.kv, 'manifests')
  return w
}

/** Runs `fn`; the manifest reads it made and whether it wrote anything. */
async function readsOf(fn: () => Promise<unknown>): Promise<{ manifests: number; writes: number }> {
  const before = manifestReads
  const cost = await requestsOf(fn)
  const writes = Object.entries(cost)
    .filter(([op]) => !/^(Get|BatchGet|Query|Scan)/.test(op))
    .reduce((n, [, c]) => n + c, 0)
  return { manifests: manifestReads - before, writes }
}

/** Runs `fn` and returns how many DynamoDB requests it made, by operation. */
async function requestsOf(fn: () => Promise<unknown>): Promise<Record<string, number>> {
  await settle()
  counter.reset()
  await fn()
  await settle()
  return counter.snapshot()
}

describe('GET /edge/v1/mailboxes/<name>/desired', () => {
  it('answers version 0, nothing, full before the mailbox has content; then 304 for "0"', async () => {
    const res = await call('GET', path(), undefined, { token })
    expect(res.status).toBe(200)
    expect(res.headers.get('etag')).toBe('"0"')
    expect(DesiredStateSchema.parse(res.body)).toEqual({
      kind: 'DesiredState',
      mailbox,
      version: 0,
      full: true,
      entries: [],
      bodies: {},
    })
    let status = 0
    const cost = await readsOf(async () => {
      status = (await call('GET', path(), undefined, { token, ifNoneMatch: '"0"' })).status
    })
    expect(status).toBe(304)
    // Answered from what this process read for the mailbox: no manifest read, nothing written.
    expect(cost).toEqual({ manifests: 0, writes: 0 })
  })

  it('answers the full state, then 304 from memory, then a delta once the epoch moved', async () => {
    const w1 = await write([ns, cm('a', { k: '1' }), cm('b', { k: '2' })], null)
    const v1 = w1.manifest.version
    const full = await call('GET', path(), undefined, { token })
    expect(full.status).toBe(200)
    expect(full.headers.get('etag')).toBe(`"${v1}"`)
    const s1 = DesiredStateSchema.parse(full.body)
    expect(s1).toMatchObject({ mailbox, version: v1, full: true })
    expect(s1.entries.map((e) => `${e.resource}/${e.name}`)).toEqual([
      'configmaps/a',
      'configmaps/b',
      'namespaces/app',
    ])
    expect(Object.keys(s1.bodies)).toHaveLength(3)
    const a = s1.entries.find((e) => e.name === 'a')!
    expect(s1.bodies[a.hash]).toMatchObject({ kind: 'ConfigMap', data: { k: '1' } })
    expect(a).toMatchObject({ generation: 1, rv: v1 })

    let res: Awaited<ReturnType<typeof call>> | undefined
    const warm = await readsOf(async () => {
      res = await call('GET', path(), undefined, { token, ifNoneMatch: `"${v1}"` })
    })
    expect(res?.status).toBe(304)
    expect(res?.text).toBe('')
    expect(res?.headers.get('etag')).toBe(`"${v1}"`)
    expect(warm).toEqual({ manifests: 0, writes: 0 })
    // An agent naming another version gets the manifest read again.
    const other = await readsOf(() => call('GET', path(), undefined, { token, ifNoneMatch: '"1"' }))
    expect(other.manifests).toBe(1)

    const w2 = await write([ns, cm('a', { k: '1' }), cm('c', { k: '3' })], v1)
    const v2 = w2.manifest.version
    const delta = await call('GET', path(), undefined, { token, ifNoneMatch: `"${v1}"` })
    const s2 = DesiredStateSchema.parse(delta.body)
    expect(s2).toMatchObject({ version: v2, full: false })
    expect(s2.entries.map((e) => e.name)).toEqual(['a', 'c', 'app'])
    const c = s2.entries.find((e) => e.name === 'c')!
    expect(Object.keys(s2.bodies)).toEqual([c.hash])
    expect(s2.bodies[c.hash]).toMatchObject({ data: { k: '3' } })
  })

  it('raises the served mark to each version it answers with, and writes nothing for a 304', async () => {
    const current = await deps.projections.getManifest(spaceId)
    const v = current?.version ?? 0
    const cost = await requestsOf(() => call('GET', path(), undefined, { token }))
    expect(cost).toMatchObject({ UpdateItem: 1 })
    expect(await deps.projections.getServed(spaceId)).toEqual({ kind: 'at', version: v })
    const idle = await readsOf(() =>
      call('GET', path(), undefined, { token, ifNoneMatch: `"${v}"` })
    )
    expect(idle).toEqual({ manifests: 0, writes: 0 })
    // An admin's read is no agent's poll.
    const admin = await readsOf(() => call('GET', path()))
    expect(admin).toEqual({ manifests: 1, writes: 0 })
    // An agent answered with an older version (a slow request) never lowers the mark.
    await deps.projections.markServed(spaceId, v - 1)
    expect(await deps.projections.getServed(spaceId)).toEqual({ kind: 'at', version: v })
  })

  it('answers everything for a version it cannot relate', async () => {
    for (const inm of ['"999999999"', 'garbage', '"0"']) {
      const res = await call('GET', path(), undefined, { token, ifNoneMatch: inm })
      const s = DesiredStateSchema.parse(res.body)
      expect(s.full, inm).toBe(true)
      expect(Object.keys(s.bodies)).toHaveLength(3)
    }
  })

  it('re-checks a remembered space that shows no manifest: a deleted mailbox is 404, not empty', async () => {
    const gone = await createSyncTarget(call, 'imw-d', 'gone')
    const goneToken = await edgeToken({ store }, gone.mailbox)
    const w = await write([ns], null, gone.spaceId)
    const goneDesired = `/edge/v1/mailboxes/${gone.mailbox}/desired`
    expect((await call('GET', goneDesired, undefined, { token: goneToken })).status).toBe(200)
    const del = await call(
      'DELETE',
      `/clusters/root:espw/apis/tenancy.kcp.io/v1alpha1/workspaces/${gone.mailbox}`
    )
    expect(del.status).toBe(200)
    await settle()
    const res = await call('GET', goneDesired, undefined, {
      token: goneToken,
      ifNoneMatch: `"${w.manifest.version}"`,
    })
    expect(res.status).toBe(404)
  })
})
