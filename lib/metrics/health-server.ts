/**
 * The small HTTP server the long-running Node programs (edge agent, watch relay) serve for their
 * probes and scrapes, on node:http (never imported by the Worker):
 * - `GET /healthz`: liveness, 200 `ok` while `live()` says so, else 503 with its reason;
 * - `GET /readyz`: readiness, the same for `ready()`;
 * - `GET /metrics`: `metrics()` (Prometheus text, PROMETHEUS_CONTENT_TYPE).
 * HEAD answers like GET without a body; any other method is 405, any other path 404, always plain
 * text. A check or a render that throws answers 503 / 500 with a short message, never a hang.
 * `port` 0 takes a free port; `listen` resolves with the port bound and rejects when it cannot
 * bind (the caller exits: a probe target that cannot be served is a start failure).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { PROMETHEUS_CONTENT_TYPE } from './prometheus-text.ts'

/** A check's answer: ok, or not with a one-line reason. */
export type Check = { ok: true } | { ok: false; reason: string }

export type HealthServerOptions = {
  /** Port to listen on; 0 takes a free one. */
  port: number
  /** Address to bind (default: every interface, as a pod's probes need). */
  host?: string
  live(): Check
  ready(): Check
  /** The metrics page, Prometheus text. */
  metrics(): string
}

export type HealthServer = {
  /** The port bound. */
  port: number
  close(): Promise<void>
}

const TEXT = 'text/plain; charset=utf-8'

/** An answer: status `code`, content `type` and `body` (left out for HEAD). */
type Answer = { code: number; type: string; body: string }

function send(res: ServerResponse, head: boolean, answer: Answer) {
  const { code, type, body } = answer
  res.writeHead(code, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  })
  res.end(head ? undefined : body)
}

function answerCheck(res: ServerResponse, head: boolean, check: () => Check): void {
  let c: Check
  try {
    c = check()
  } catch (e) {
    c = { ok: false, reason: `check failed: ${e instanceof Error ? e.message : String(e)}` }
  }
  if (c.ok) send(res, head, { code: 200, type: TEXT, body: 'ok\n' })
  else send(res, head, { code: 503, type: TEXT, body: `${c.reason.replace(/[\r\n]+/g, ' ')}\n` })
}

function handler(o: HealthServerOptions) {
  return (req: IncomingMessage, res: ServerResponse) => {
    // Nothing is read from a body: drain it so the socket can be reused.
    req.resume()
    const path = (req.url ?? '/').split('?')[0]
    const known = path === '/healthz' || path === '/readyz' || path === '/metrics'
    if (!known) return send(res, false, { code: 404, type: TEXT, body: 'not found\n' })
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD')
      return send(res, false, { code: 405, type: TEXT, body: 'method not allowed\n' })
    }
    const head = req.method === 'HEAD'
    if (path === '/healthz') return answerCheck(res, head, o.live)
    if (path === '/readyz') return answerCheck(res, head, o.ready)
    let page: string
    try {
      page = o.metrics()
    } catch (e) {
      return send(res, head, {
        code: 500,
        type: TEXT,
        body: `metrics unavailable: ${String(e).slice(0, 200)}\n`,
      })
    }
    send(res, head, { code: 200, type: PROMETHEUS_CONTENT_TYPE, body: page })
  }
}

export function startHealthServer(o: HealthServerOptions): Promise<HealthServer> {
  const server = createServer(handler(o))
  server.keepAliveTimeout = 5_000
  server.headersTimeout = 10_000
  server.requestTimeout = 10_000
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen({ port: o.port, ...(o.host ? { host: o.host } : {}) }, () => {
      server.off('error', reject)
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done())
            server.closeAllConnections()
          }),
      })
    })
  })
}
