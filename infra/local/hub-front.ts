/**
 * The local hub's front door, inside the `npm start` process: serves https on EDGEPLANE_PORT with
 * the stack's self-signed certificate and forwards each request to `wrangler dev`, which listens
 * on plain http on a loopback port of its own. It exists because workerd parses the request URL
 * (resolving `..` and `%2e%2e`, reading `\` as `/`) before the Worker runs, so only here is the raw
 * request-target still visible: a refused method or target (functions/raw-request-guard.ts — dot
 * segments, malformed percent-encoding, a target over 16 KiB, an unknown method) is answered with a
 * kube Status and never forwarded. Everything else is passed through as it came — method, raw
 * target, headers and Host, minus hop-by-hop headers — over keep-alive connections, with the
 * start's front secret in FRONT_HEADER (functions/front-gate.ts: the Worker refuses what lacks it,
 * so wrangler's own ports serve nothing the front did not check; a client's own FRONT_HEADER is
 * dropped), and the answer
 * is streamed back unbuffered (watches flow event by event). A client that goes away aborts its
 * upstream request, so the Worker sees the watch end. If wrangler is not answering, 503. An answer
 * (the front's or the Worker's) given before the client finished sending its body is delivered
 * whole: the rest of the body is drained before the connection closes (guardListener), and an
 * upstream that hangs up on the unread remainder after answering in full does not cut the client
 * off. A body whose declared length is past the Worker's limit (3 MiB, functions/api/body.ts) is
 * not sent at all: the Worker answers such a request from its head (413 RequestEntityTooLarge, or
 * whatever it finds first — 401, 404), and that answer is relayed. Streaming the body instead
 * lost the answer: the Worker closes with the body unread, its kernel resets the connection, and
 * a reset discards what the front had received but not yet read (Linux), so the front answered
 * 503 "not answering: EPIPE" for every body of 3.5 or 11 MiB.
 */
import { Agent, type IncomingMessage, request, type ServerResponse } from 'node:http'
import { createServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { MAX_BODY_BYTES } from '../../functions/api/body.ts'
import { FRONT_HEADER } from '../../functions/front-gate.ts'
import {
  GUARDED_SERVER_OPTIONS,
  guardListener,
  guardServer,
  writeStatus,
} from '../../functions/raw-request-guard.ts'
import { serviceUnavailable } from '../../lib/errors.ts'

export type HubFrontOptions = {
  port: number
  host?: string
  tls: { certPem: string; keyPem: string }
  /** Where wrangler dev listens (plain http on loopback). */
  upstream: { host: string; port: number }
  /** Sent in FRONT_HEADER with every forwarded request (the Worker's LOCAL_FRONT_SECRET). */
  secret?: string
}

export type HubFront = { url: string; port: number; close(): Promise<void> }

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
])

/** Headers of `raw` (Node's rawHeaders) without hop-by-hop ones and those `Connection` names. */
export function endToEndHeaders(raw: string[]): Record<string, string | string[]> {
  const named = new Set<string>()
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]?.toLowerCase() === 'connection')
      for (const token of (raw[i + 1] ?? '').split(',')) named.add(token.trim().toLowerCase())
  const out: Record<string, string | string[]> = {}
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] ?? '').toLowerCase()
    const value = raw[i + 1] ?? ''
    if (HOP_BY_HOP.has(name) || named.has(name)) continue
    const prev = out[name]
    out[name] = prev === undefined ? value : [...(Array.isArray(prev) ? prev : [prev]), value]
  }
  return out
}

const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0')

/** The headers forwarded upstream: the client's end-to-end ones, FRONT_HEADER the front's own. */
export function upstreamHeaders(
  raw: string[],
  secret: string | undefined
): Record<string, string | string[]> {
  const headers = endToEndHeaders(raw)
  delete headers[FRONT_HEADER]
  if (secret) headers[FRONT_HEADER] = secret
  return headers
}

/** How long the Worker may take to answer a request whose body the front withheld. */
const WITHHELD_ANSWER_MS = 30_000

/**
 * Whether the front keeps `req`'s body from the Worker: when its declared length is past the
 * Worker's limit, which every route's body reader refuses (413) before reading a byte.
 */
const withheld = (req: IncomingMessage) => Number(req.headers['content-length']) > MAX_BODY_BYTES

function forwarder(upstream: HubFrontOptions['upstream'], agent: Agent, secret?: string) {
  const forward = (req: IncomingMessage, res: ServerResponse, retried: boolean): void => {
    const withhold = withheld(req)
    const up = request({
      host: upstream.host,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers: upstreamHeaders(req.rawHeaders, secret),
      agent,
    })
    let answered = false
    let whole = false
    up.on('response', (upRes) => {
      answered = true
      upRes.on('end', () => {
        // answered in full: the Worker wants no more of the body (the client's rest is drained)
        whole = true
        req.unpipe(up)
        // A request sent without its body cannot be finished: its connection is not reused.
        if (withhold) up.destroy()
      })
      res.writeHead(upRes.statusCode ?? 502, endToEndHeaders(upRes.rawHeaders))
      // A streamed answer (a watch: no length) shows its headers at once; others go in one write.
      if (upRes.headers['content-length'] === undefined) res.flushHeaders()
      upRes.pipe(res)
      upRes.on('error', () => res.destroy())
      upRes.on('close', () => {
        if (!upRes.complete) res.destroy()
      })
    })
    up.on('error', (e: NodeJS.ErrnoException) => {
      if (whole) return
      if (answered || res.headersSent || res.destroyed) return void res.destroy()
      // A kept-alive connection the Worker closed meanwhile: retried once when nothing was sent.
      if (up.reusedSocket && !retried && !hasBody(req)) return forward(req, res, true)
      writeStatus(
        res,
        serviceUnavailable(`the hub Worker is not answering: ${e.code ?? e.message}`)
      )
    })
    res.on('close', () => {
      if (!res.writableFinished) up.destroy()
    })
    if (retried || !hasBody(req)) up.end()
    else if (withhold) {
      up.flushHeaders()
      up.setTimeout(WITHHELD_ANSWER_MS, () =>
        up.destroy(new Error('no answer to a request whose body was withheld'))
      )
    } else req.pipe(up)
  }
  return (req: IncomingMessage, res: ServerResponse) => forward(req, res, false)
}

export async function startHubFront(opts: HubFrontOptions): Promise<HubFront> {
  const host = opts.host ?? '127.0.0.1'
  const agent = new Agent({ keepAlive: true, maxFreeSockets: 64, timeout: 30_000 })
  const server = guardServer(
    createServer(
      { ...GUARDED_SERVER_OPTIONS, cert: opts.tls.certPem, key: opts.tls.keyPem },
      guardListener(forwarder(opts.upstream, agent, opts.secret))
    )
  )
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  let closing: Promise<void> | undefined
  return {
    url: `https://${host}:${port}`,
    port,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
        agent.destroy()
      })
      return closing
    },
  }
}
