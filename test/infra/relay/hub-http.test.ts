/**
 * The relay's hub calls against a real node:http server that holds requests open: a hook call or
 * a list the hub never answers (or whose answer stops after its headers) times out, and the
 * batcher's backoff, or the watch loop's, sends it again until the hub answers; a watch is not
 * bounded by those limits. Timeouts are a few tens of milliseconds so the tests run quickly.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createHubHttp } from '../../../infra/relay/hub-http.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { createLogger } from '../../../lib/log.ts'
import { createBatcher } from '../../../lib/relay/batcher.ts'
import { runWatchLoop } from '../../../lib/relay/watch-loop.ts'
import { targetPath, type WatchTarget } from '../../../lib/relay/watch-targets.ts'

type Seen = { method: string; url: string; body: string }
type Handler = (req: IncomingMessage, res: ServerResponse, nth: number) => void

const SYNCTARGETS: WatchTarget = {
  group: 'edge.kcp.io',
  version: 'v1alpha1',
  resource: 'synctargets',
}

let server: Server | undefined
afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((r) => server?.close(r) ?? r(undefined))
  server = undefined
})

/** A hub on a free port; `handle` gets each request with how many came before it on its path. */
async function hubServer(handle: Handler): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = []
  const counts = new Map<string, number>()
  const s = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => {
      body += c.toString()
    })
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? ''
      const nth = counts.get(path) ?? 0
      counts.set(path, nth + 1)
      seen.push({ method: req.method ?? '', url: req.url ?? '', body })
      handle(req, res, nth)
    })
  })
  server = s
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, seen }
}

const json = (res: ServerResponse, body: unknown) => {
  res.writeHead(200, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

/** A logger whose lines are kept, parsed. */
function capture() {
  const lines: Record<string, unknown>[] = []
  const log = createLogger({
    level: 'debug',
    sink: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
  })
  return { log, lines }
}

const realTimer = (fn: () => void, ms: number) => {
  const t = setTimeout(fn, ms)
  return () => clearTimeout(t)
}

describe('hook calls the hub does not answer', () => {
  const holds = {
    'no answer at all': (_res: ServerResponse) => {},
    'headers, then no body': (res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"results":[')
    },
  }
  for (const [how, hold] of Object.entries(holds))
    it(`time out (${how}), are counted as failed and sent again until delivered`, async () => {
      const hub = await hubServer((req, res, nth) => {
        if (req.url !== '/hooks/mailbox') return json(res, {})
        if (nth === 0) return hold(res)
        json(res, { results: [{ key: 'mb-1', ok: true, outcome: 'created' }] })
      })
      const { log, lines } = capture()
      const http = createHubHttp({ baseUrl: hub.url, token: 't', timeoutMs: 250 })
      const batcher = createBatcher({
        flush: (step, keys) => http.flush(step, keys),
        delayMs: 1,
        maxKeys: 500,
        setTimer: realTimer,
        random: () => 0,
        backoff: { baseMs: 10, maxMs: 20 },
        log,
      })
      expect(await batcher.add('mailbox', 'mb-1')).toBe(true)
      // Held once, then answered (more attempts only if a loaded machine missed the limit again).
      const hooks = hub.seen.filter((s) => s.url === '/hooks/mailbox')
      expect(hooks.length).toBeGreaterThanOrEqual(2)
      for (const h of hooks) expect(JSON.parse(h.body)).toEqual({ keys: ['mb-1'] })
      const failed = lines.filter((l) => l.msg === 'relay flush failed')
      expect(failed).toHaveLength(hooks.length - 1)
      expect(failed[0]).toMatchObject({
        level: 'warn',
        step: 'mailbox',
        keys: 1,
        err: { message: expect.stringMatching(/^POST \/hooks\/mailbox: /) },
      })
    })

  it('still count a 2xx answer that is not JSON as delivered, as before', async () => {
    const hub = await hubServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.end('ok')
    })
    const http = createHubHttp({ baseUrl: hub.url, token: 't', timeoutMs: 1000 })
    await expect(http.flush('where', ['a', 'b'])).resolves.toBeUndefined()
    expect(hub.seen).toHaveLength(1)
  })
})

describe('reads the hub does not answer', () => {
  it('a list times out and the watch loop lists again until answered', async () => {
    const path = targetPath(SYNCTARGETS)
    const st: KubeObject = {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'SyncTarget',
      metadata: { name: 'edge-1', resourceVersion: '7' },
    }
    const hub = await hubServer((req, res, nth) => {
      if (!req.url?.startsWith(path) || req.url.includes('watch=true')) return
      if (nth === 0) return // the first list is never answered
      json(res, { items: [st], metadata: { resourceVersion: '7' } })
    })
    const { log, lines } = capture()
    const http = createHubHttp({ baseUrl: hub.url, token: 't', readTimeoutMs: 250 })
    const controller = new AbortController()
    const got: string[] = []
    await runWatchLoop({
      resource: 'synctargets',
      openWatch: (rv, signal) => http.openWatch(SYNCTARGETS, rv, signal),
      list: () => http.list(SYNCTARGETS),
      onEvent: async (event) => {
        got.push(`${event.type} ${event.object.metadata.name}`)
        controller.abort()
        return { delivered: Promise.resolve(true) }
      },
      cursor: { load: async () => undefined, commit: () => {} },
      log,
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      random: () => 0,
      backoff: { baseMs: 10, maxMs: 20 },
      signal: controller.signal,
    })
    expect(got).toEqual(['ADDED edge-1'])
    const lists = hub.seen.filter((s) => s.url.startsWith(path))
    expect(lists.length).toBeGreaterThanOrEqual(2)
    const failed = lines.filter((l) => l.msg === 'relay watch failed; reconnecting')
    expect(failed).toHaveLength(lists.length - 1)
    expect(failed[0]).toMatchObject({
      level: 'warn',
      resource: 'synctargets',
      err: { message: expect.stringMatching(/no answer within 250 ms/) },
    })
  })

  it('the EdgePlacement list an event needs times out as a transport failure', async () => {
    const hub = await hubServer(() => {})
    // Reads get a third of the hook limit unless told otherwise.
    const http = createHubHttp({ baseUrl: hub.url, token: 't', timeoutMs: 90 })
    await expect(http.listEdgePlacements()).rejects.toMatchObject({
      name: 'RemoteError',
      kind: 'transport',
      code: 0,
      message: expect.stringMatching(
        /^GET \/clusters\/\*\/apis\/edge.kcp.io\/.*edgeplacements.*: no answer within 30 ms/
      ),
    })
  })
})

describe('watches', () => {
  it('are not bounded by the hook or read limits', async () => {
    const path = targetPath(SYNCTARGETS)
    const hub = await hubServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('')
      const event = { type: 'BOOKMARK', object: { metadata: { resourceVersion: '9' } } }
      // Quiet for many times the limits below before the one event.
      setTimeout(() => res.end(`${JSON.stringify(event)}\n`), 300)
    })
    const http = createHubHttp({ baseUrl: hub.url, token: 't', timeoutMs: 60, readTimeoutMs: 20 })
    const types: string[] = []
    for await (const e of http.openWatch(SYNCTARGETS, '5', new AbortController().signal))
      types.push(`${e.type} ${e.object.metadata.resourceVersion}`)
    expect(types).toEqual(['BOOKMARK 9'])
    expect(hub.seen[0]?.url).toMatch(new RegExp(`^${path.replace('*', '\\*')}\\?watch=true`))
  })
})
