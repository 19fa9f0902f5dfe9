import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { AddressInfo } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { FRONT_HEADER } from '../../../functions/front-gate.ts'
import { endToEndHeaders, type HubFront, startHubFront } from '../../../infra/local/hub-front.ts'
import { pickFreePort } from '../../../infra/local/ports.ts'
import { createLocalHubCert } from '../../../infra/local/tls-cert.ts'
import { rawRequest } from '../../helpers/raw-request.ts'

const tls = createLocalHubCert()
const FRONT_SECRET = 'front-secret-of-this-start'
type Seen = { method: string; url: string; headers: IncomingMessage['headers']; body: string }
let seen: Seen[] = []
let handler: (req: IncomingMessage, res: ServerResponse) => void
let upstream: Server
let front: HubFront

beforeAll(async () => {
  upstream = createServer((req, res) => {
    // answers before reading the body, as the Worker does for a bad token
    if (req.url?.startsWith('/early')) return void handler(req, res)
    let body = ''
    req.on('data', (c) => {
      body += c
    })
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
      handler(req, res)
    })
  })
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r))
  const port = (upstream.address() as AddressInfo).port
  front = await startHubFront({
    port: 0,
    tls,
    upstream: { host: '127.0.0.1', port },
    secret: FRONT_SECRET,
  })
})
afterAll(async () => {
  await front.close()
  upstream.closeAllConnections()
  await new Promise((r) => upstream.close(r))
})
afterEach(() => {
  seen = []
})

const call = (
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string
) => rawRequest(front.url, method, target, { ca: tls.certPem, headers, ...(body ? { body } : {}) })

/** Raw bytes over TLS to the front, and everything it answers until it closes. */
function rawTls(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = tlsConnect({ host: '127.0.0.1', port: front.port, ca: tls.certPem }, () =>
      sock.write(bytes)
    )
    let got = ''
    sock.on('data', (d) => {
      got += d.toString('utf8')
    })
    sock.on('close', () => resolve(got))
    sock.on('error', reject)
  })
}

describe('the local hub front', () => {
  it('forwards method, raw target, Host, body and end-to-end headers with its secret; answers stream back', async () => {
    handler = (_req, res) => {
      res.setHeader('Warning', ['299 - "one"', '299 - "two"'])
      res.setHeader('Content-Type', 'application/json')
      res.end('{"ok":true}')
    }
    const res = await call(
      'PUT',
      '/clusters/root/api/v1/namespaces/x/configmaps/c?dryRun=All&x=%2F',
      {
        authorization: 'Bearer t',
        'content-type': 'application/json',
        connection: 'keep-alive, x-drop-me',
        'x-drop-me': '1',
        'keep-alive': 'timeout=5',
        te: 'trailers',
        [FRONT_HEADER]: 'a guess',
      },
      '{"a":1}'
    )
    expect(res).toMatchObject({ status: 200, body: { ok: true } })
    expect(res.headers.warning).toBe('299 - "one", 299 - "two"')
    expect(seen).toHaveLength(1)
    const [s] = seen
    expect(s).toMatchObject({
      method: 'PUT',
      url: '/clusters/root/api/v1/namespaces/x/configmaps/c?dryRun=All&x=%2F',
      body: '{"a":1}',
    })
    expect(s?.headers.host).toBe(`127.0.0.1:${front.port}`)
    expect(s?.headers.authorization).toBe('Bearer t')
    expect(s?.headers['x-drop-me']).toBeUndefined()
    expect(s?.headers.te).toBeUndefined()
    expect(s?.headers['keep-alive']).toBeUndefined()
    // The front's secret, never what the client sent in its place.
    expect(s?.headers[FRONT_HEADER]).toBe(FRONT_SECRET)
  })

  it.each([
    ['DELETE', '/api/v1/namespaces/x/configmaps/%2e%2e', 400, "may not be '..'"],
    ['DELETE', '/api/v1/namespaces/x/configmaps/.', 400, "may not be '.'"],
    ['GET', '/clusters/%2e%2e/api/v1/namespaces', 400, "may not be '..'"],
    ['GET', '/clusters/../api/v1/namespaces', 400, "may not be '..'"],
    ['GET', '/api/v1/namespaces/x/configmaps/%zz', 400, 'percent-encoding'],
    ['GET', `/api/v1/namespaces?labelSelector=${'a'.repeat(20_000)}`, 414, 'characters long'],
    ['TRACE', '/api/v1/namespaces', 405, 'does not allow'],
  ])(
    '%s %s is answered %i with a Status and never forwarded',
    async (method, target, code, msg) => {
      const res = await call(method, target, { authorization: 'Bearer t' })
      expect(res.status).toBe(code)
      expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', code })
      expect(res.body.message).toContain(msg)
      expect(seen).toEqual([])
    }
  )

  it('a method the parser does not know is 405 with a Status body', async () => {
    const answer = await rawTls('FOO /api/v1/namespaces HTTP/1.1\r\nHost: x\r\n\r\n')
    expect(answer).toMatch(/^HTTP\/1\.1 405 /)
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))
    expect(body).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed', code: 405 })
    expect(seen).toEqual([])
  })

  it('streams a response as it comes (a watch) and ends the upstream request when the client goes', async () => {
    let upstreamClosed: () => void = () => {}
    const closed = new Promise<void>((r) => {
      upstreamClosed = r
    })
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"type":"ADDED"}\n')
      res.on('close', () => upstreamClosed())
    }
    const first = await new Promise<string>((resolve, reject) => {
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port: front.port,
          path: '/api/v1/configmaps?watch=1',
          ca: tls.certPem,
        },
        (res) => {
          res.once('data', (d: Buffer) => {
            resolve(d.toString())
            req.destroy()
          })
        }
      )
      req.on('error', (e) => (e.message === 'socket hang up' ? undefined : reject(e)))
      req.end()
    })
    expect(first).toBe('{"type":"ADDED"}\n')
    await closed
  })

  it('ends the client response when the Worker drops a stream midway', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"type":"ADDED"}\n')
      setTimeout(() => res.socket?.destroy(), 50)
    }
    const outcome = await new Promise<string>((resolve) => {
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port: front.port,
          path: '/api/v1/configmaps?watch=1',
          ca: tls.certPem,
        },
        (res) => {
          res.resume()
          res.on('end', () => resolve('ended'))
          res.on('error', () => resolve('aborted'))
        }
      )
      req.on('error', () => resolve('aborted'))
      req.end()
    })
    expect(outcome).toBe('aborted')
  })

  it('answers 503 with a Status while the Worker is not listening', async () => {
    const port = await pickFreePort()
    const lonely = await startHubFront({ port: 0, tls, upstream: { host: '127.0.0.1', port } })
    try {
      const res = await rawRequest(lonely.url, 'GET', '/healthz', { ca: tls.certPem })
      expect(res).toMatchObject({ status: 503, body: { kind: 'Status', code: 503 } })
    } finally {
      await lonely.close()
    }
  })

  it('keeps upstream connections alive across requests', async () => {
    const ports = new Set<number>()
    handler = (req, res) => {
      ports.add(req.socket.remotePort ?? 0)
      res.end('ok')
    }
    for (let i = 0; i < 5; i++) expect((await call('GET', '/healthz')).status).toBe(200)
    expect(ports.size).toBe(1)
  })
})

describe('endToEndHeaders', () => {
  it('CONNECT is 405 and a request without Host is 400, each with a Status body', async () => {
    const connect = await rawTls('CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n')
    expect(connect).toMatch(/^HTTP\/1\.1 405 /)
    expect(connect).toContain('"reason":"MethodNotAllowed"')
    const hostless = await rawTls('GET /api HTTP/1.1\r\nConnection: close\r\n\r\n')
    expect(hostless).toMatch(/^HTTP\/1\.1 400 /)
    expect(hostless).toContain('missing required Host header')
    expect(seen).toEqual([])
  })

  it.each([
    ['the front refuses', '/api/v1/namespaces/x/configmaps/%2e%2e', 400],
    ['the Worker refuses (then hangs up)', '/early', 401],
  ])('a 4 MiB upload %s at once still gets its whole Status', async (_, target, code) => {
    // The Worker answers in full, stops sending (FIN), then hangs up on the body it never read.
    // Closing with unread data sends a reset, which makes the front's kernel drop an answer the
    // front has not read yet; so the reset comes once the front has had ample time to read it (a
    // reset within 20 ms failed on a loaded machine: 503, the answer never read).
    handler = (req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' })
      res.end('{"kind":"Status","code":401}')
      setTimeout(() => req.socket.end(), 20)
      setTimeout(() => req.socket.destroy(), 1000)
    }
    const size = 4 * 1024 * 1024
    for (let i = 0; i < 3; i++) {
      const res = await rawTls(
        `POST ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: ${size}\r\n\r\n${' '.repeat(size)}`
      )
      expect(res).toMatch(new RegExp(`^HTTP/1\\.1 ${code} `))
      expect(res).toContain('"kind":"Status"')
    }
  })

  it.each([3.5, 11])("a %s MiB body gets the Worker's early 413, never 503", async (mib) => {
    // As workerd does: the answer from the head, then a hang-up with the body unread (a reset).
    handler = (req, res) => {
      const body = '{"kind":"Status","reason":"RequestEntityTooLarge","code":413}'
      res.writeHead(413, { 'content-type': 'application/json', 'content-length': body.length })
      res.end(body, () => req.socket.destroy())
    }
    const size = Math.floor(mib * 1024 * 1024)
    for (let i = 0; i < 3; i++) {
      const res = await rawTls(
        `POST /early/api HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: ${size}\r\n\r\n${' '.repeat(size)}`
      )
      expect(res).toMatch(/^HTTP\/1\.1 413 /)
      expect(res).toContain('"reason":"RequestEntityTooLarge"')
    }
  })

  it('drops hop-by-hop headers and those Connection names, keeps repeated ones', () => {
    expect(
      endToEndHeaders([
        'Connection',
        'close, X-Hop',
        'X-Hop',
        'a',
        'Transfer-Encoding',
        'chunked',
        'Upgrade',
        'h2c',
        'Set-Cookie',
        'a=1',
        'Set-Cookie',
        'b=2',
        'Host',
        'h',
      ])
    ).toEqual({ 'set-cookie': ['a=1', 'b=2'], host: 'h' })
  })
})
