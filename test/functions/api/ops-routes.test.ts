/**
 * The hub's /metrics, /readyz, /livez and /healthz through app.request() over dynalite: who may
 * read /metrics, that its text is a valid exposition whose counters move with the requests (kube
 * verbs and route classes, edge polls 200/304, reconcile runs by step and outcome, store
 * requests), edgeplane_build_info and the isolate's start (no CPU or memory: a Worker cannot
 * measure them), that two isolates' deltas add up in the store, and the edge last-seen gauges
 * (ops-routes-health.test.ts has /readyz, /livez and /healthz).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNodeApp } from '../../../functions/node-server.ts'
import { registerToken } from '../../../lib/auth/tokens.ts'
import { bootstrapHub } from '../../../lib/hub/bootstrap.ts'
import { type HubOps, storeHubOps } from '../../../lib/metrics/hub-ops.ts'
import { createDynamoClient } from '../../../lib/store/dynamo-client.ts'
import { createDynamoStore } from '../../../lib/store/dynamo-store.ts'
import pkg from '../../../package.json' with { type: 'json' }
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { type Exposition, parseExposition } from '../../helpers/exposition.ts'
import { ADMIN_TOKEN, BASE, createTestHub } from '../../helpers/hub.ts'
import { createInventory, createSyncTarget, edgeToken } from '../edge-api/edge-setup.ts'

type App = ReturnType<typeof createNodeApp>

let store: TestStore
let skew = 0
let ops: HubOps
let hub: App
let mailbox: string
let edge: string

function makeApp(o: HubOps): App {
  return createNodeApp({
    objects: store.objects,
    kv: store.kv,
    projections: store.projections,
    ops: o,
  })
}

/** A JSON `body`, the bearer token (default admin, null: none) and an If-None-Match value. */
type CallOptions = { body?: unknown; token?: string | null; ifNoneMatch?: string }

async function call(app: App, method: string, path: string, opts: CallOptions = {}) {
  const { body } = opts
  const headers: Record<string, string> = {}
  const token = opts.token === undefined ? ADMIN_TOKEN : opts.token
  if (token !== null) headers.authorization = `Bearer ${token}`
  if (opts.ifNoneMatch) headers['if-none-match'] = opts.ifNoneMatch
  if (body !== undefined) headers['content-type'] = 'application/json'
  const res = await app.app.request(`${BASE}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  })
  const text = await res.text()
  await app.settle()
  let parsed: any = text
  try {
    parsed = JSON.parse(text)
  } catch {
    // text
  }
  return { status: res.status, headers: res.headers, text, body: parsed }
}

async function scrape(app: App = hub): Promise<Exposition> {
  const res = await call(app, 'GET', '/metrics')
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
  return parseExposition(res.text)
}

const requests = (e: Exposition, labels: Record<string, string>) =>
  e.value('edgeplane_http_requests_total', labels) ?? 0

beforeAll(async () => {
  store = await createTestStore()
  ops = storeHubOps(store, { now: () => Date.now() + skew, shard: 3, flushEveryMs: 3_600_000 })
  hub = makeApp(ops)
  await bootstrapHub(hub.deps, { adminToken: ADMIN_TOKEN, baseUrl: BASE })
  const admin = (m: string, p: string, b?: unknown) => call(hub, m, p, { body: b })
  await createInventory(admin, 'imw-m')
  ;({ mailbox } = await createSyncTarget(admin, 'imw-m', 'florin'))
  edge = await edgeToken({ store }, mailbox)
  await registerToken(store.kv, 'reader', {
    name: 'prometheus',
    kind: 'user',
    spaces: ['root:imw-m'],
    groups: ['edgeplane:metrics-readers'],
  })
  await registerToken(store.kv, 'plain', { name: 'someone', kind: 'user', spaces: ['root'] })
})
afterAll(async () => {
  await hub.settle()
  await store.close()
})

describe('/metrics', () => {
  it('needs a token (401), and admin or a metrics-reader group (403 otherwise)', async () => {
    const none = await call(hub, 'GET', '/metrics', { token: null })
    expect(none.status).toBe(401)
    expect(none.body).toMatchObject({ kind: 'Status', code: 401, reason: 'Unauthorized' })
    for (const token of ['plain', edge]) {
      const res = await call(hub, 'GET', '/metrics', { token })
      expect(res.status).toBe(403)
      expect(res.body).toMatchObject({ kind: 'Status', code: 403, reason: 'Forbidden' })
    }
    const reader = await call(hub, 'GET', '/metrics', { token: 'reader' })
    expect(reader.status).toBe(200)
    expect(parseExposition(reader.text).types.get('edgeplane_http_requests_total')).toBe('counter')
  })

  it('is a valid exposition whose request counters and histograms follow the requests', async () => {
    const before = await scrape()
    for (const h of [
      'edgeplane_http_request_duration_seconds',
      'edgeplane_reconcile_duration_seconds',
    ])
      expect(before.types.get(h)).toBe('histogram')
    const cms = '/clusters/root:imw-m/api/v1/namespaces/default/configmaps'
    for (let i = 0; i < 3; i++) expect((await call(hub, 'GET', cms)).status).toBe(200)
    const created = await call(hub, 'POST', cms, {
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'secret-looking-name' },
      },
    })
    expect(created.status).toBe(201)
    expect((await call(hub, 'GET', `${cms}/nope`)).status).toBe(404)
    const after = await scrape()
    const list = { verb: 'list', route: 'resource', resource: 'core/configmaps', code: '200' }
    expect(requests(after, list) - requests(before, list)).toBe(3)
    const create = { verb: 'create', route: 'resource', resource: 'core/configmaps', code: '201' }
    expect(requests(after, create) - requests(before, create)).toBe(1)
    const get = { verb: 'get', route: 'resource', resource: 'core/configmaps', code: '404' }
    expect(requests(after, get) - requests(before, get)).toBe(1)
    // The scrape itself is counted, 401s too; no label value holds a path, a space or a name.
    expect(
      requests(after, { verb: 'get', route: 'metrics', resource: '', code: '200' })
    ).toBeGreaterThan(0)
    expect(
      requests(after, { verb: 'get', route: 'metrics', resource: '', code: '401' })
    ).toBeGreaterThan(0)
    for (const s of after.samples)
      for (const v of Object.values(s.labels))
        expect(v).not.toMatch(/imw-m|secret-looking|nope|default/)
    const count = (e: Exposition) =>
      e.value('edgeplane_http_request_duration_seconds_count', {
        verb: 'list',
        route: 'resource',
      }) ?? 0
    expect(count(after) - count(before)).toBe(3)
    const inf = after.value('edgeplane_http_request_duration_seconds_bucket', {
      verb: 'list',
      route: 'resource',
      le: '+Inf',
    })
    expect(inf).toBe(count(after))
    const ok =
      after.value('edgeplane_store_requests_total', { command: 'Query', result: 'ok' }) ?? 0
    const okBefore =
      before.value('edgeplane_store_requests_total', { command: 'Query', result: 'ok' }) ?? 0
    expect(ok).toBeGreaterThan(okBefore)
  })

  it('says which release answers and when its isolate started, and no CPU or memory', async () => {
    const e = await scrape()
    expect(e.types.get('edgeplane_build_info')).toBe('gauge')
    expect(e.value('edgeplane_build_info', { version: pkg.version })).toBe(1)
    expect(e.samples.filter((x) => x.name === 'edgeplane_build_info')).toHaveLength(1)
    expect(e.value('process_start_time_seconds')).toBe(ops.startedAtMs / 1000)
    for (const unmeasured of ['process_cpu_seconds_total', 'process_resident_memory_bytes'])
      expect(e.types.has(unmeasured)).toBe(false)
  })

  it('counts edge polls by code (200, then 304) and reports', async () => {
    const before = await scrape()
    const path = `/edge/v1/mailboxes/${mailbox}/desired`
    const full = await call(hub, 'GET', path, { token: edge })
    expect(full.status).toBe(200)
    const etag = full.headers.get('etag') ?? ''
    for (let i = 0; i < 2; i++)
      expect((await call(hub, 'GET', path, { token: edge, ifNoneMatch: etag })).status).toBe(304)
    const after = await scrape()
    const polls = (e: Exposition, code: string) =>
      e.value('edgeplane_edge_polls_total', { code }) ?? 0
    expect(polls(after, '200') - polls(before, '200')).toBe(1)
    expect(polls(after, '304') - polls(before, '304')).toBe(2)
    const route = { verb: 'get', route: 'edge-desired', resource: '', code: '304' }
    expect(requests(after, route) - requests(before, route)).toBe(2)
  })

  it('counts reconcile runs by step and outcome, with durations', async () => {
    const before = await scrape()
    const hook = await call(hub, 'POST', '/hooks/mailbox', {
      body: { keys: [mailbox, 'not-a-mailbox-key'] },
    })
    expect(hook.status).toBe(200)
    const after = await scrape()
    const runs = (e: Exposition, outcome: string) =>
      e.value('edgeplane_reconciles_total', { step: 'mailbox', outcome }) ?? 0
    const outcomes = hook.body.results.map((r: { ok: boolean }) => r.ok)
    const oks = outcomes.filter(Boolean).length
    expect(runs(after, 'ok') - runs(before, 'ok')).toBe(oks)
    const failed =
      runs(after, 'error') +
      runs(after, 'terminal') -
      runs(before, 'error') -
      runs(before, 'terminal')
    expect(failed).toBe(outcomes.length - oks)
    const dur = (e: Exposition) =>
      e.value('edgeplane_reconcile_duration_seconds_count', { step: 'mailbox', outcome: 'ok' }) ?? 0
    expect(dur(after) - dur(before)).toBe(oks)
    // The SyncTarget setup ran the mailbox step once already.
    expect(runs(before, 'ok')).toBeGreaterThan(0)
  })

  it('adds up the deltas of two isolates in the store', async () => {
    // Another isolate: its own client, store and registry, on the same table.
    const client = createDynamoClient({
      region: 'us-east-1',
      endpoint: store.endpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    })
    const other = makeApp(
      storeHubOps(createDynamoStore({ client, tableName: store.tableName }), { shard: 11 })
    )
    const before = await scrape()
    const secrets = '/clusters/root:imw-m/api/v1/namespaces/default/secrets'
    expect((await call(other, 'GET', secrets)).status).toBe(200) // first request: flushed at once
    expect((await call(hub, 'GET', secrets)).status).toBe(200)
    expect((await call(hub, 'GET', secrets)).status).toBe(200)
    const after = await scrape()
    const list = { verb: 'list', route: 'resource', resource: 'core/secrets', code: '200' }
    expect(requests(after, list) - requests(before, list)).toBe(3)
    const items = await store.metrics.read()
    expect(items.size).toBeGreaterThan(0)
    const fromOther = await scrape(other)
    expect(requests(fromOther, list)).toBe(requests(after, list))
    client.destroy()
  })

  it('shows SyncTargets by heartbeat age, and the stale ones by name', async () => {
    skew += 61_000 // past the edge cache
    const never = await scrape()
    expect(never.value('edgeplane_edges_by_last_seen', { age: 'never' })).toBe(1)
    expect(never.value('edgeplane_edges_by_last_seen', { age: '0-3m' })).toBe(0)
    const report = await call(hub, 'POST', `/edge/v1/mailboxes/${mailbox}/reports`, {
      body: { kind: 'Report', heartbeat: true },
      token: edge,
    })
    expect(report.status).toBe(200)
    skew += 61_000
    const fresh = await scrape()
    expect(fresh.value('edgeplane_edges_by_last_seen', { age: '0-3m' })).toBe(1)
    expect(fresh.value('edgeplane_edges_by_last_seen', { age: 'never' })).toBe(0)
    expect(
      fresh.samples.filter((s) => s.name === 'edgeplane_edge_last_seen_timestamp_seconds')
    ).toEqual([])
    expect(fresh.value('edgeplane_edge_reports_total', { code: '200' })).toBeGreaterThan(0)
    skew += 10 * 60_000
    const stale = await scrape()
    expect(stale.value('edgeplane_edges_by_last_seen', { age: '3m-15m' })).toBe(1)
    const seen = stale.value('edgeplane_edge_last_seen_timestamp_seconds', {
      space: 'root:imw-m',
      sync_target: 'florin',
    })
    expect(seen).toBeGreaterThan(Date.now() / 1000 - 300)
    expect(seen).toBeLessThanOrEqual(Date.now() / 1000)
  })

  it('is 404 on a hub without metrics (a simulated edge cluster)', async () => {
    const plain = await createTestHub()
    try {
      const res = await plain.call('GET', '/metrics')
      expect(res.status).toBe(404)
      expect(res.body).toMatchObject({ kind: 'Status', code: 404 })
    } finally {
      await plain.close()
    }
  })
})
