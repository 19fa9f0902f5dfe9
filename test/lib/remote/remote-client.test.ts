/**
 * The one remote client against small real HTTP(S) servers: requests as sent (path, query, token
 * read per request, JSON and raw bodies), answers read (JSON, empty, 304), every failure as a
 * RemoteError of the right kind — kube Status 4xx/5xx with reason and message, non-JSON error
 * bodies, unreadable 2xx answers, no answer (refused, dropped), a private CA trusted only when
 * given, a caller's abort and the client's timeout — and watch streams (chunked lines, a refused
 * watch, a stream lost midway). nodeTransport's per-request options stand in for a kubeconfig.
 */
import { getEventListeners } from 'node:events'
import { createServer as createHttp, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer as createHttps } from 'node:https'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createLocalHubCert } from '../../../infra/local/tls-cert.ts'
import { followersOf } from '../../../lib/linked-signal.ts'
import { nodeTransport } from '../../../lib/remote/node-transport.ts'
import { createRemote } from '../../../lib/remote/remote-client.ts'
import { isRemoteError, RemoteError } from '../../../lib/remote/remote-error.ts'

type Handler = (req: IncomingMessage, res: ServerResponse) => void
const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const c of closers.splice(0)) await c()
})

async function serve(handler: Handler, tls?: { certPem: string; keyPem: string }) {
  const server = tls
    ? createHttps({ cert: tls.certPem, key: tls.keyPem }, handler)
    : createHttp(handler)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  closers.push(
    () =>
      new Promise((r) => {
        server.closeAllConnections()
        server.close(() => r())
      })
  )
  const { port } = server.address() as AddressInfo
  return `${tls ? 'https' : 'http'}://${tls ? 'localhost' : '127.0.0.1'}:${port}`
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e
  )

type Seen = { method: string; url: string; auth: string; type: string; body: string }

/** Echoes each request; answers what `answer` says for it. */
async function echo(
  answer: (s: Seen, res: ServerResponse) => void = (s, res) =>
    void res.writeHead(200).end(JSON.stringify(s))
) {
  const seen: Seen[] = []
  const url = await serve((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => {
      body += c.toString()
    })
    req.on('end', () => {
      const s = {
        method: req.method ?? '',
        url: req.url ?? '',
        auth: req.headers.authorization ?? '',
        type: req.headers['content-type'] ?? '',
        body,
      }
      seen.push(s)
      answer(s, res)
    })
  })
  return { url, seen }
}

describe('createRemote: answers', () => {
  it('sends path, query, a token read per request and a JSON body, and reads JSON', async () => {
    const { url } = await echo()
    let n = 0
    const remote = createRemote({ baseUrl: `${url}/base/`, token: async () => `t${++n}` })
    expect(remote.baseUrl).toBe(`${url}/base`)
    const first = await remote.call('/things', {
      method: 'POST',
      query: { fieldManager: 'me', force: 'true' },
      body: { x: 1 },
    })
    expect(first).toEqual({
      method: 'POST',
      url: '/base/things?fieldManager=me&force=true',
      auth: 'Bearer t1',
      type: 'application/json',
      body: '{"x":1}',
    })
    const raw = await remote.call('/raw', {
      method: 'PATCH',
      body: new TextEncoder().encode('{"y":2}'),
      contentType: 'application/apply-patch+yaml',
    })
    expect(raw).toMatchObject({
      auth: 'Bearer t2',
      type: 'application/apply-patch+yaml',
      body: '{"y":2}',
    })
  })

  it('answers undefined for an empty 2xx and hands raw answers (304, 404) to send', async () => {
    const { url } = await echo((s, res) => {
      if (s.url === '/empty') return void res.writeHead(200).end()
      if (s.url === '/same') return void res.writeHead(304).end()
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"kind":"Status"}')
    })
    const remote = createRemote({ baseUrl: url })
    expect(await remote.call('/empty')).toBeUndefined()
    expect((await remote.send('/same')).status).toBe(304)
    const missing = await remote.send('/gone')
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ kind: 'Status' })
  })
})

describe('createRemote: failures, one error type', () => {
  it.each([
    [403, 'Forbidden', 'tokens are admin only'],
    [409, 'Conflict', 'the object has been modified'],
    [500, 'InternalError', 'etcd is sad'],
    [503, 'ServiceUnavailable', 'the mailbox is not created yet'],
  ])('decodes a kube Status %i into code, reason and message', async (code, reason, message) => {
    const { url } = await echo((_s, res) =>
      res
        .writeHead(code, { 'content-type': 'application/json' })
        .end(JSON.stringify({ kind: 'Status', status: 'Failure', code, reason, message }))
    )
    const err = await failure(createRemote({ baseUrl: url }).call('/x/y', { method: 'PUT' }))
    expect(err).toBeInstanceOf(RemoteError)
    expect(err).toMatchObject({ code, reason, detail: message, kind: 'answer' })
    expect((err as Error).message).toBe(`PUT /x/y: HTTP ${code}: ${message}`)
    expect(isRemoteError(err, code)).toBe(true)
    expect(isRemoteError(err, code + 1)).toBe(false)
  })

  it('keeps the start of a non-JSON error body, else the status text', async () => {
    const { url } = await echo((s, res) => {
      if (s.url === '/text') return void res.writeHead(502).end(`bad gateway ${'x'.repeat(500)}`)
      res.writeHead(500).end()
    })
    const remote = createRemote({ baseUrl: url })
    const text = await failure(remote.call('/text', { what: 'GET upstream' }))
    expect(text).toMatchObject({ code: 502, reason: undefined, kind: 'answer' })
    expect((text as RemoteError).detail).toBe(`bad gateway ${'x'.repeat(288)}`)
    expect((text as Error).message.startsWith('GET upstream: HTTP 502: bad gateway x')).toBe(true)
    const empty = await failure(remote.call('/empty'))
    expect(empty).toMatchObject({ code: 500, detail: 'Internal Server Error' })
  })

  it('reports a 2xx answer that is not JSON as unreadable', async () => {
    const { url } = await echo((_s, res) => res.writeHead(200).end('<html>'))
    const err = await failure(createRemote({ baseUrl: url }).call('/page'))
    expect(err).toMatchObject({ code: 200, kind: 'unreadable' })
  })

  it('reports no answer as a transport failure with code 0', async () => {
    const gone = await serve(() => {})
    await closers.pop()?.()
    const refused = await failure(createRemote({ baseUrl: gone }).call('/'))
    expect(refused).toMatchObject({ code: 0, kind: 'transport' })
    expect((refused as Error).message).toMatch(/^GET \/: fetch failed \(.*ECONNREFUSED/)
    const dropped = await serve((req) => req.socket.destroy())
    expect(await failure(createRemote({ baseUrl: dropped }).send('/'))).toMatchObject({
      code: 0,
      kind: 'transport',
    })
  })

  it('trusts a private CA only when given it', async () => {
    const tls = createLocalHubCert()
    const url = await serve((_req, res) => res.writeHead(200).end('{"ok":true}'), tls)
    expect(await createRemote({ baseUrl: url, ca: tls.certPem }).call('/')).toEqual({ ok: true })
    const untrusted = await failure(createRemote({ baseUrl: url }).call('/'))
    expect(untrusted).toMatchObject({ code: 0, kind: 'transport' })
    expect((untrusted as Error).message).toMatch(/self-signed|self signed/)
    const other = createLocalHubCert().certPem
    expect(await failure(createRemote({ baseUrl: url, ca: other }).call('/'))).toMatchObject({
      code: 0,
    })
  })

  it('ends a request on the caller abort and on its own timeout', async () => {
    const url = await serve(() => {})
    const abort = new AbortController()
    const pending = failure(createRemote({ baseUrl: url }).send('/hang', { signal: abort.signal }))
    abort.abort()
    expect(await pending).toMatchObject({ code: 0, kind: 'transport' })
    const slow = await failure(createRemote({ baseUrl: url, timeoutMs: 50 }).send('/hang'))
    expect(slow).toMatchObject({ code: 0, kind: 'transport' })
    expect((slow as Error).message).toBe('GET /hang: no answer within 50 ms')
  })

  it("with a caller's signal and a limit, times out with the limit's message, and lets go of the signal", async () => {
    const url = await serve(() => {})
    const { url: echoUrl } = await echo()
    const stop = new AbortController()
    const slow = await failure(
      createRemote({ baseUrl: url, timeoutMs: 50 }).send('/hang', { signal: stop.signal })
    )
    expect((slow as Error).message).toBe('GET /hang: no answer within 50 ms')
    const remote = createRemote({ baseUrl: echoUrl, timeoutMs: 60_000 })
    for (let i = 0; i < 5; i++) await remote.call('/x', { signal: stop.signal })
    // A long-lived signal (an agent's stop) keeps nothing of requests that have ended.
    expect(followersOf(stop.signal)).toBe(0)
    expect(getEventListeners(stop.signal, 'abort').length).toBeLessThanOrEqual(1)
  })
})

describe('createRemote: watch streams', () => {
  it('yields each JSON line of a chunked answer until the server ends it', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"type":"ADDED","object":{"n":1}}\n{"ty')
      setTimeout(() => res.end('pe":"BOOKMARK","object":{"n":2}}\n\n{"type":"X","object":{}}'), 20)
    })
    const got: unknown[] = []
    for await (const e of createRemote({ baseUrl: url }).watch('/w')) got.push(e)
    expect(got).toEqual([
      { type: 'ADDED', object: { n: 1 } },
      { type: 'BOOKMARK', object: { n: 2 } },
      { type: 'X', object: {} },
    ])
  })

  it('rejects a refused watch with its Status, and a stream lost midway as transport', async () => {
    const url = await serve((req, res) => {
      if (req.url?.startsWith('/old'))
        return void res
          .writeHead(410)
          .end(JSON.stringify({ kind: 'Status', reason: 'Expired', message: 'too old' }))
      res.writeHead(200)
      res.write('{"type":"ADDED","object":{}}\n')
      setTimeout(() => req.socket.destroy(), 20)
    })
    const remote = createRemote({ baseUrl: url })
    const drain = async (path: string, seen: unknown[]) => {
      for await (const e of remote.watch(path, { query: { watch: 'true' } })) seen.push(e)
    }
    expect(await failure(drain('/old', []))).toMatchObject({ code: 410, reason: 'Expired' })
    const seen: unknown[] = []
    expect(await failure(drain('/cut', seen))).toMatchObject({ code: 0, kind: 'transport' })
    expect(seen).toHaveLength(1)
  })

  it('stops a watch when the caller aborts', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200)
      res.write('{"type":"ADDED","object":{}}\n')
    })
    const abort = new AbortController()
    const seen: unknown[] = []
    const run = failure(
      (async () => {
        for await (const e of createRemote({ baseUrl: url }).watch('/w', {
          signal: abort.signal,
        })) {
          seen.push(e)
          abort.abort()
        }
      })()
    )
    expect(await run).toMatchObject({ code: 0, kind: 'transport' })
    expect(seen).toHaveLength(1)
  })
})

describe('nodeTransport', () => {
  it('applies per-request options (headers, CA) read before each request', async () => {
    const tls = createLocalHubCert()
    const auths: string[] = []
    const url = await serve((req, res) => {
      auths.push(`${req.headers.authorization} ${req.headers['impersonate-user'] ?? ''}`)
      res.writeHead(200).end('{}')
    }, tls)
    let n = 0
    const fetch = nodeTransport(async () => ({
      ca: tls.certPem,
      headers: { Authorization: `Bearer exec-${++n}`, 'Impersonate-User': 'ann' },
    }))
    const remote = createRemote({ baseUrl: url, fetch })
    await remote.call('/a')
    await remote.call('/b')
    expect(auths).toEqual(['Bearer exec-1 ann', 'Bearer exec-2 ann'])
  })

  it('streams a watch, times out, and reports no answer, as fetch does', async () => {
    const tls = createLocalHubCert()
    const url = await serve((req, res) => {
      if (req.url === '/hang') return
      res.writeHead(200)
      res.write('{"type":"ADDED","object":{"n":1}}\n')
      setTimeout(() => res.end('{"type":"DELETED","object":{"n":1}}\n'), 20)
    }, tls)
    const remote = createRemote({ baseUrl: url, ca: tls.certPem, timeoutMs: 2000 })
    const got: unknown[] = []
    for await (const e of remote.watch('/w')) got.push(e)
    expect(got).toEqual([
      { type: 'ADDED', object: { n: 1 } },
      { type: 'DELETED', object: { n: 1 } },
    ])
    const slow = createRemote({ baseUrl: url, ca: tls.certPem, timeoutMs: 50 })
    expect(await failure(slow.send('/hang'))).toMatchObject({ code: 0, kind: 'transport' })
    const gone = await serve(() => {})
    await closers.pop()?.()
    const refused = await failure(createRemote({ baseUrl: gone, ca: tls.certPem }).call('/'))
    expect(refused).toMatchObject({ code: 0, kind: 'transport' })
    expect((refused as Error).message).toMatch(/ECONNREFUSED/)
  })
})
