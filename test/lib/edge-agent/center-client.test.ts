/**
 * The center client against small real HTTP(S) servers: request shape (path, token, If-None-Match),
 * 304, parsed answers, and each failure kind as a RemoteError (code 0 when there is no answer);
 * `ca` reaching an https server signed by a private CA that is refused without it; `agent` sent
 * with every report; a 401 (a rotated or revoked token) explained as such, for both requests.
 */
import { createServer as createHttp, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer as createHttps } from 'node:https'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createLocalHubCert } from '../../../infra/local/tls-cert.ts'
import { createCenterClient } from '../../../lib/edge-agent/center-client.ts'
import { RemoteError } from '../../../lib/remote/remote-error.ts'

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
  closers.push(() => new Promise((r) => server.close(() => r())))
  const { port } = server.address() as AddressInfo
  return `${tls ? 'https' : 'http'}://${tls ? 'localhost' : '127.0.0.1'}:${port}`
}

const desired = {
  kind: 'DesiredState',
  mailbox: 'mb',
  version: 4,
  full: true,
  entries: [],
  bodies: {},
}

function client(baseUrl: string, ca?: string) {
  return createCenterClient({
    baseUrl,
    mailbox: 'mb',
    token: async () => 'tok',
    ...(ca ? { ca } : {}),
  })
}

describe('createCenterClient', () => {
  it('asks with the token and the version, and reads 200 and 304', async () => {
    const seen: { url?: string; auth?: string; inm?: string }[] = []
    const url = await serve((req, res) => {
      seen.push({
        url: req.url ?? '',
        auth: req.headers.authorization ?? '',
        inm: req.headers['if-none-match'] ?? '',
      })
      if (req.headers['if-none-match'] === '"4"') {
        res.writeHead(304).end()
        return
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(desired))
    })
    const c = client(`${url}/`)
    expect(await c.getDesired()).toEqual({ kind: 'desired', state: desired })
    expect(await c.getDesired(4)).toEqual({ kind: 'unchanged' })
    expect(seen).toEqual([
      { url: '/edge/v1/mailboxes/mb/desired', auth: 'Bearer tok', inm: '' },
      { url: '/edge/v1/mailboxes/mb/desired', auth: 'Bearer tok', inm: '"4"' },
    ])
  })

  it.each([
    [
      'an HTTP error',
      (_q: IncomingMessage, s: ServerResponse) => void s.writeHead(403).end('{"message":"no"}'),
      403,
      'answer',
    ],
    [
      'an unreadable body',
      (_q: IncomingMessage, s: ServerResponse) => void s.writeHead(200).end('{"kind":"nope"}'),
      200,
      'unreadable',
    ],
    ['a dropped connection', (q: IncomingMessage) => void q.socket.destroy(), 0, 'transport'],
  ])('turns %s into a RemoteError', async (_what, handler, code, kind) => {
    const c = client(await serve(handler as Handler))
    const err = await c.getDesired().catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RemoteError)
    expect(err).toMatchObject({ code, kind })
  })

  it('explains a 401 as a rotated or revoked token, for the poll and the report', async () => {
    const url = await serve((_q, res) => {
      res.writeHead(401, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          kind: 'Status',
          code: 401,
          reason: 'Unauthorized',
          message: 'Unauthorized',
        })
      )
    })
    const c = client(url)
    const polled = await c.getDesired().catch((e: unknown) => e)
    expect(polled).toMatchObject({ code: 401, reason: 'Unauthorized', kind: 'answer' })
    expect((polled as Error).message).toBe(
      "GET desired: the center refused this edge's token (401): it was rotated or revoked; apply the edge's bootstrap manifests again (npm run edge:bootstrap -- ... --rotate prints new ones; under npm start, restart it)"
    )
    const report = {
      kind: 'Report' as const,
      statuses: [],
      upsync: { apply: [], delete: [] },
      problems: [],
      heartbeat: true,
    }
    const reported = await c.postReport(report).catch((e: unknown) => e)
    expect((reported as Error).message).toMatch(
      /^POST reports: the center refused this edge's token \(401\)/
    )
  })

  it('posts a report and reads the result', async () => {
    let body = ''
    const url = await serve((req, res) => {
      req.on('data', (c) => {
        body += c
      })
      req.on('end', () =>
        res.writeHead(200).end(JSON.stringify({ kind: 'ReportResult', accepted: 0, rejected: [] }))
      )
    })
    const report = {
      kind: 'Report' as const,
      statuses: [],
      upsync: { apply: [], delete: [] },
      problems: [],
      heartbeat: true,
    }
    expect(await client(url).postReport(report)).toEqual({
      kind: 'ReportResult',
      accepted: 0,
      rejected: [],
    })
    expect(JSON.parse(body)).toEqual(report)
  })

  it("sends the agent's version and poll interval with every report", async () => {
    const bodies: unknown[] = []
    const url = await serve((req, res) => {
      let body = ''
      req.on('data', (c) => {
        body += c
      })
      req.on('end', () => {
        bodies.push(JSON.parse(body))
        res.writeHead(200).end(JSON.stringify({ kind: 'ReportResult', accepted: 0, rejected: [] }))
      })
    })
    const agent = { version: '0.1.0', pollIntervalSeconds: 15 }
    const c = createCenterClient({ baseUrl: url, mailbox: 'mb', token: async () => 'tok', agent })
    const report = (heartbeat: boolean) => ({
      kind: 'Report' as const,
      statuses: [],
      upsync: { apply: [], delete: [] },
      problems: [],
      heartbeat,
    })
    await c.postReport(report(true))
    await c.postReport(report(false))
    expect(bodies).toEqual([
      { ...report(true), agent },
      { ...report(false), agent },
    ])
    // asked at each report: what the agent says of its polls changes
    const said = [{ ...agent, pollMode: 'plain' as const }, undefined]
    const asking = createCenterClient({
      baseUrl: url,
      mailbox: 'mb',
      token: async () => 'tok',
      agent: () => said.shift(),
    })
    await asking.postReport(report(true))
    await asking.postReport(report(true))
    expect(bodies.slice(2)).toEqual([
      { ...report(true), agent: { ...agent, pollMode: 'plain' } },
      report(true),
    ])
  })
})

describe('a center with a private CA', () => {
  it('is trusted with the CA given, refused without', async () => {
    const tls = createLocalHubCert()
    const url = await serve((req, res) => {
      if (req.headers['if-none-match']) return void res.writeHead(304).end()
      res.writeHead(200).end(JSON.stringify(desired))
    }, tls)
    await expect(client(url).getDesired()).rejects.toMatchObject({ code: 0 })
    const c = client(url, tls.certPem)
    expect(await c.getDesired()).toEqual({ kind: 'desired', state: desired })
    expect(await c.getDesired(4)).toEqual({ kind: 'unchanged' })
  })
})
