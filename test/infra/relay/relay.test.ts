import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type NodeHub, startNodeHub } from '../../../functions/node-server.ts'
import { createHubHttp } from '../../../infra/relay/hub-http.ts'
import { startRelay } from '../../../infra/relay/relay.ts'
import { bootstrapHub } from '../../../lib/hub/bootstrap.ts'
import { createLogger } from '../../../lib/log.ts'
import { renderPrometheus } from '../../../lib/metrics/prometheus-text.ts'
import { CURSOR_NS } from '../../../lib/relay/cursor.ts'
import { mailboxOf } from '../../../lib/relay/event-keys.ts'
import { RELAY_METRIC } from '../../../lib/relay/relay-metrics.ts'
import { CORE_TARGETS, type WatchTarget, WORKSPACES } from '../../../lib/relay/watch-targets.ts'
import { RemoteError } from '../../../lib/remote/remote-error.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { parseExposition } from '../../helpers/exposition.ts'

const sample = (text: string, name: string, labels?: Record<string, string>) =>
  parseExposition(text).value(name, labels)

const TOKEN = 'relay-test-admin'
let store: TestStore
let hub: NodeHub
const log = createLogger({ level: 'error' })

beforeAll(async () => {
  store = await createTestStore()
  hub = await startNodeHub({ objects: store.objects, kv: store.kv })
  await bootstrapHub(hub.deps, { adminToken: TOKEN, baseUrl: hub.url })
})
afterAll(async () => {
  await hub?.close()
  await store?.close()
})

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${hub.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

/** Polls `check` until it returns a value or the deadline passes. */
async function eventually<T>(check: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const v = await check()
    if (v !== undefined) return v
    if (Date.now() > deadline) throw new Error('condition not met before the deadline')
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('startRelay against a real hub', () => {
  it('turns a new SyncTarget into its mailbox Workspace and saves the cursor on stop', async () => {
    let stBody: Record<string, unknown> | undefined
    const relay = await startRelay({
      hubUrl: hub.url,
      token: TOKEN,
      kv: store.kv,
      log,
      delayMs: 20,
    })
    try {
      const ws = await call('POST', '/clusters/root/apis/tenancy.kcp.io/v1alpha1/workspaces', {
        apiVersion: 'tenancy.kcp.io/v1alpha1',
        kind: 'Workspace',
        metadata: { name: 'inv-relay' },
      })
      expect(ws.status).toBe(201)
      const st = await call(
        'POST',
        '/clusters/root:inv-relay/apis/edge.kcp.io/v1alpha1/synctargets',
        {
          apiVersion: 'edge.kcp.io/v1alpha1',
          kind: 'SyncTarget',
          metadata: { name: 'edge-1' },
        }
      )
      expect(st.status).toBe(201)
      stBody = st.body
      const mailbox = mailboxOf(st.body as never)
      expect(mailbox).toBeTruthy()
      const found = await eventually(async () => {
        const r = await call(
          'GET',
          `/clusters/root:espw/apis/tenancy.kcp.io/v1alpha1/workspaces/${mailbox}`
        )
        return r.status === 200 ? r.body : undefined
      })
      expect((found.metadata as { name: string }).name).toBe(mailbox)
      // What it did shows in its metrics and health. The hook's call is counted when its answer
      // has been read, which may come after the Workspace it made is visible.
      const mailboxCalls = { step: 'mailbox', outcome: 'ok' }
      const page = await eventually(async () => {
        relay.collectMetrics()
        const text = renderPrometheus(relay.registry.families.values())
        return sample(text, RELAY_METRIC.hookCalls, mailboxCalls) === undefined ? undefined : text
      })
      expect(sample(page, RELAY_METRIC.hookCalls, mailboxCalls)).toBeGreaterThanOrEqual(1)
      const stEvents = { resource: 'synctargets.edge.kcp.io', type: 'ADDED' }
      expect(sample(page, RELAY_METRIC.events, stEvents)).toBeGreaterThanOrEqual(1)
      expect(sample(page, RELAY_METRIC.watches)).toBe(relay.watches().length)
      expect(relay.watches().length).toBeGreaterThan(0)
      expect([relay.live(), relay.ready()]).toEqual([{ ok: true }, { ok: true }])
    } finally {
      await relay.stop()
    }
    expect(relay.ready()).toEqual({ ok: false, reason: 'the relay is stopping' })
    const cursor = await store.kv.get(CURSOR_NS, '*/edge.kcp.io/synctargets')
    const rv = (cursor?.value as { resourceVersion?: string } | undefined)?.resourceVersion
    expect(rv).toMatch(/^\d+$/)
    // Saved past the SyncTarget's own event, not just the initial list.
    const stRv = (stBody?.metadata as { resourceVersion: string } | undefined)?.resourceVersion
    expect(Number(rv)).toBeGreaterThanOrEqual(Number(stRv))
    // stop() is idempotent
    await relay.stop()
  })

  it('refuses to start with a token the hub does not know', async () => {
    await expect(
      startRelay({ hubUrl: hub.url, token: 'nope', kv: store.kv, log })
    ).rejects.toMatchObject({ code: 401 })
  })
})

describe('createHubHttp', () => {
  it('reads the espw id and lists across spaces', async () => {
    const http = createHubHttp({ baseUrl: `${hub.url}/`, token: TOKEN })
    expect(await http.espwSpaceId()).toMatch(/\S/)
    const listed = await http.list(WORKSPACES)
    expect(listed.items.map((w) => w.metadata.name)).toContain('espw')
    expect(listed.resourceVersion).toMatch(/^\d+$/)
  })
  it('discovers the resources the hub serves, preferred versions first', async () => {
    const http = createHubHttp({ baseUrl: hub.url, token: TOKEN })
    const found = await http.discover()
    const cm = found.find((r) => r.group === '' && r.resource === 'configmaps')
    expect(cm).toMatchObject({ version: 'v1', verbs: expect.arrayContaining(['list', 'watch']) })
    expect(found.some((r) => r.group === 'edge.kcp.io' && r.resource === 'synctargets')).toBe(true)
    const hpa = found.filter((r) => r.resource === 'horizontalpodautoscalers')
    expect(hpa[0]?.version).toBe('v2')
  })
  it('answers each key of a flush, or nothing when the answer is unreadable', async () => {
    const answers = [
      JSON.stringify({
        step: 'translate',
        results: [
          { key: 'a', ok: true, outcome: 'unchanged', requeueAfterMs: 100 },
          { key: 'b', ok: false, outcome: 'boom' },
        ],
      }),
      'not json',
    ]
    const http = createHubHttp({
      baseUrl: 'http://hub.test',
      token: 't',
      fetch: async () => new Response(answers.shift() ?? ''),
    })
    expect(await http.flush('translate', ['a', 'b'])).toEqual([
      { key: 'a', ok: true, outcome: 'unchanged', requeueAfterMs: 100 },
      { key: 'b', ok: false, outcome: 'boom' },
    ])
    expect(await http.flush('translate', ['a'])).toBeUndefined()
  })
  it('lists every page, keeping the first resourceVersion', async () => {
    const seen: string[] = []
    const page = (names: string[], rv: string, next?: string) =>
      JSON.stringify({
        items: names.map((name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } })),
        metadata: { resourceVersion: rv, ...(next ? { continue: next } : {}) },
      })
    const pages = [page(['a', 'b'], '7', 'tok'), page(['c'], '9')]
    const http = createHubHttp({
      baseUrl: 'http://hub.test',
      token: 't',
      fetch: async (input) => {
        seen.push(String(input))
        return new Response(pages.shift() ?? '')
      },
    })
    const listed = await http.list({ group: '', version: 'v1', resource: 'configmaps' })
    expect(listed.items.map((i) => i.metadata.name)).toEqual(['a', 'b', 'c'])
    expect(listed.resourceVersion).toBe('7')
    expect(seen).toEqual([
      'http://hub.test/clusters/*/api/v1/configmaps?limit=500',
      'http://hub.test/clusters/*/api/v1/configmaps?limit=500&continue=tok',
    ])
  })
  it('fails a flush the hub rejects', async () => {
    const http = createHubHttp({ baseUrl: hub.url, token: TOKEN })
    await expect(http.flush('no-such-step', ['x'])).rejects.toMatchObject({ code: 404 })
    await expect(http.flush('mailbox', [])).rejects.toBeInstanceOf(RemoteError)
  })
  it('turns an HTTP 410 on watch into an error with code 410', async () => {
    const gone = async () =>
      new Response(JSON.stringify({ kind: 'Status', reason: 'Expired', message: 'too old' }), {
        status: 410,
      })
    const http = createHubHttp({ baseUrl: 'http://hub.test', token: 't', fetch: gone })
    const iter = http.openWatch(CORE_TARGETS[0] as WatchTarget, '5', new AbortController().signal)
    await expect(
      (async () => {
        for await (const _ of iter) break
      })()
    ).rejects.toMatchObject({ code: 410, reason: 'Expired' })
  })
  it('parses a chunked NDJSON watch stream and rejects malformed lines', async () => {
    const lines = [
      '{"type":"ADDED","object":{"apiVersion":"v1","kind":"X","metadata":{"name":"a"}}}\n{"ty',
      'pe":"BOOKMARK","object":{"metadata":{"resourceVersion":"9"}}}\n\n',
      '{"nope":1}\n',
    ]
    const stream = () =>
      new ReadableStream<Uint8Array>({
        start(c) {
          for (const l of lines) c.enqueue(new TextEncoder().encode(l))
          c.close()
        },
      })
    const http = createHubHttp({
      baseUrl: 'http://hub.test',
      token: 't',
      fetch: async () => new Response(stream()),
    })
    const seen: string[] = []
    await expect(
      (async () => {
        for await (const e of http.openWatch(WORKSPACES, '1', new AbortController().signal))
          seen.push(e.type)
      })()
    ).rejects.toThrow()
    expect(seen).toEqual(['ADDED', 'BOOKMARK'])
  })
})
