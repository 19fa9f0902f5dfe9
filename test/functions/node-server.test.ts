import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type NodeHub, startNodeHub } from '../../functions/node-server.ts'
import { bootstrapHub } from '../../lib/hub/bootstrap.ts'
import { createTestStore, type TestStore } from '../helpers/dynalite.ts'
import { rawRequest } from '../helpers/raw-request.ts'

const TOKEN = 'node-server-test-token'
const auth = { authorization: `Bearer ${TOKEN}` }
const NS = '/api/v1/namespaces'
const CMS = `${NS}/x/configmaps`

let store: TestStore
let hub: NodeHub

const call = (method: string, target: string, body?: unknown) =>
  rawRequest(hub.url, method, target, {
    headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })

beforeAll(async () => {
  store = await createTestStore()
  hub = await startNodeHub({ objects: store.objects, kv: store.kv })
  await bootstrapHub(hub.deps, { adminToken: TOKEN, baseUrl: hub.url })
  await call('POST', NS, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } })
  for (const name of ['a', 'b'])
    await call('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } })
})
afterAll(async () => {
  await hub.close()
  await store.close()
})

/** Writes raw bytes on a connection and reads what comes back until the server closes it. */
function rawExchange(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = connect(hub.port, '127.0.0.1', () => sock.write(bytes))
    let got = ''
    sock.on('data', (d) => {
      got += d.toString('utf8')
    })
    sock.on('close', () => resolve(got))
    sock.on('error', reject)
  })
}

describe('the plain-Node hub checks the raw request-target before the app', () => {
  it.each(['%2e%2e', '%2E%2E', '.%2e', '..'])(
    'DELETE .../configmaps/%s is 400 and the Namespace stays',
    async (seg) => {
      const res = await call('DELETE', `${CMS}/${seg}`)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 })
      expect(res.body.message).toContain("may not be '..'")
      expect((await call('GET', `${NS}/x`)).status).toBe(200)
    }
  )

  it('DELETE .../configmaps/. and %2e are 400 and no ConfigMap is deleted', async () => {
    for (const seg of ['.', '%2e']) {
      const res = await call('DELETE', `${CMS}/${seg}`)
      expect(res.status).toBe(400)
      expect(res.body.message).toContain("may not be '.'")
    }
    const list = await call('GET', CMS)
    expect(list.body.items.map((i: any) => i.metadata.name)).toEqual(['a', 'b'])
  })

  it('a patch through .. does not reach the Namespace', async () => {
    const res = await rawRequest(hub.url, 'PATCH', `${CMS}/%2e%2e`, {
      headers: { ...auth, 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ metadata: { labels: { hit: 'yes' } } }),
    })
    expect(res.status).toBe(400)
    expect((await call('GET', `${NS}/x`)).body.metadata.labels?.hit).toBeUndefined()
  })

  it('/clusters/%2e%2e/... and /clusters/../... are 400, never root', async () => {
    for (const target of ['/clusters/%2e%2e/api/v1/namespaces', '/clusters/../api/v1/namespaces'])
      expect(await call('GET', target)).toMatchObject({ status: 400, body: { code: 400 } })
  })

  it('a 20 KB target is 414 with a Status body', async () => {
    const res = await call('GET', `${CMS}?labelSelector=${'a'.repeat(20_000)}`)
    expect(res.status).toBe(414)
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'RequestURITooLong', code: 414 })
  })

  it('an unknown method is 405 with a Status body, whether the parser or the check refuses it', async () => {
    const trace = await call('TRACE', CMS)
    expect(trace.status).toBe(405)
    expect(trace.body).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed' })
    const foo = await rawExchange(`FOO ${CMS} HTTP/1.1\r\nHost: x\r\n\r\n`)
    expect(foo).toMatch(/^HTTP\/1\.1 405 /)
    expect(JSON.parse(foo.slice(foo.indexOf('\r\n\r\n') + 4))).toMatchObject({
      kind: 'Status',
      code: 405,
      reason: 'MethodNotAllowed',
    })
  })

  it('a request the parser cannot read is 400 with a Status body', async () => {
    const bad = await rawExchange(`GET ${CMS}/a\u0001b HTTP/1.1\r\nHost: x\r\n\r\n`)
    expect(bad).toMatch(/^HTTP\/1\.1 400 /)
    expect(bad).toContain('"kind":"Status"')
  })

  it('ordinary requests still reach the app', async () => {
    expect((await call('GET', `${CMS}/a`)).body.metadata.name).toBe('a')
    expect((await call('GET', '/healthz')).status).toBe(200)
  })
})

describe('requests Node itself would answer bare', () => {
  it('CONNECT is 405 with a Status body, not a dropped connection', async () => {
    const res = await rawExchange('CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n')
    expect(res).toMatch(/^HTTP\/1\.1 405 /)
    expect(JSON.parse(res.slice(res.indexOf('\r\n\r\n') + 4))).toMatchObject({
      kind: 'Status',
      reason: 'MethodNotAllowed',
      code: 405,
    })
  })

  it('an HTTP/1.1 request without Host is 400 with a Status body; HTTP/1.0 needs none', async () => {
    const res = await rawExchange(
      `GET ${CMS} HTTP/1.1\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`
    )
    expect(res).toMatch(/^HTTP\/1\.1 400 /)
    expect(JSON.parse(res.slice(res.indexOf('\r\n\r\n') + 4))).toMatchObject({
      kind: 'Status',
      reason: 'BadRequest',
      message: 'missing required Host header',
    })
    const old = await rawExchange(`GET ${CMS}/a HTTP/1.0\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`)
    expect(old).toMatch(/^HTTP\/1\.1 200 /)
  })

  it('a 4 MiB upload refused at once (no token) still gets its 401 Status', async () => {
    const body = `{"kind":"ConfigMap","pad":"${'p'.repeat(4 * 1024 * 1024)}"}`
    for (let i = 0; i < 3; i++) {
      const res = await rawExchange(
        `POST ${CMS} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`
      )
      expect(res).toMatch(/^HTTP\/1\.1 401 /)
      expect(res).toContain('"kind":"Status"')
    }
  })
})

describe('close()', () => {
  it('ends connections that stay open without a request, idle or half-sent, instead of waiting on them', async () => {
    const other = await startNodeHub({ objects: store.objects, kv: store.kv })
    const open = (bytes?: string) =>
      new Promise<{ ended: Promise<void> }>((resolve, reject) => {
        const sock = connect(other.port, '127.0.0.1', () => {
          if (bytes) sock.write(bytes)
          resolve({ ended: new Promise<void>((r) => sock.once('close', () => r())) })
        })
        sock.on('error', () => undefined)
        sock.once('error', reject)
      })
    // a client that vanished after connecting, and one stuck in the middle of its headers
    const silent = await open()
    const halfSent = await open('GET /version HTTP/1.1\r\nHost: x\r\n')
    await other.close()
    await Promise.all([silent.ended, halfSent.ended])
    await expect(
      new Promise((resolve, reject) => {
        const s = connect(other.port, '127.0.0.1', () => resolve('connected'))
        s.once('error', reject)
      })
    ).rejects.toThrow(/ECONNREFUSED/)
  }, 30_000)
})

describe('pause() and resume()', () => {
  it('an outage: open connections end, connects are refused; then the same port serves the same data again', async () => {
    const other = await startNodeHub({ objects: store.objects, kv: store.kv })
    try {
      const sock = await new Promise<ReturnType<typeof connect>>((resolve, reject) => {
        const s = connect(other.port, '127.0.0.1', () => resolve(s))
        s.once('error', reject)
      })
      sock.on('error', () => undefined)
      const ended = new Promise<void>((r) => sock.once('close', () => r()))
      await other.pause()
      await ended
      await expect(
        new Promise((resolve, reject) => {
          const s = connect(other.port, '127.0.0.1', () => resolve('connected'))
          s.once('error', reject)
        })
      ).rejects.toThrow(/ECONNREFUSED/)
      await other.resume()
      const res = await rawRequest(other.url, 'GET', `${CMS}/a`, { headers: auth })
      expect(res.status).toBe(200)
    } finally {
      await other.close()
    }
  }, 30_000)
})
