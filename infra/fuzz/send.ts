/**
 * Sends one fuzz request to a hub exactly as generated: node:http(s) with the path untouched (no
 * WHATWG URL normalisation, so `..` and `%2e%2e` reach the server), any method, any bytes; raw
 * requests go over a plain or TLS socket. Watches are read for a short window and then hung up.
 * Never throws: a connection error or timeout is an Answer with status 0.
 */
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import tls from 'node:tls'
import type { Answer, FuzzRequest, TokenKind } from './types.ts'

export type Target = {
  url: URL
  ca?: string
  /** The bearer token of each kind that has one (absent kinds are skipped by the runner). */
  tokens: Partial<Record<TokenKind, string>>
  /** Per request; a silent answer past it is status 0. */
  timeoutMs: number
  /** How long a watch is read before hanging up (a future-RV watch waits for its error event). */
  watchMs: number
  futureWatchMs: number
}

export function authHeader(t: Target, kind: TokenKind): string | undefined {
  if (kind === 'none') return undefined
  if (kind === 'malformed') return 'Basic Zm9vOmJhcg=='
  if (kind === 'bad') return 'Bearer not-a-token-at-all'
  const token = t.tokens[kind]
  return token ? `Bearer ${token}` : undefined
}

const MAX_KEPT = 64 * 1024

/** `keep`: how much of the answer's body to keep (the fuzzer's own calls keep all of it). */
export function send(t: Target, r: FuzzRequest, keep = MAX_KEPT): Promise<Answer> {
  if (r.raw !== undefined) {
    const auth = authHeader(t, r.token) ?? ''
    return sendRaw(
      t,
      Buffer.from(r.raw.replaceAll('{HOST}', t.url.host).replaceAll('{AUTH}', auth), 'latin1')
    )
  }
  // node's client loses an early answer (413, 401) to a large body once its write fails with
  // EPIPE; a raw socket waits for 100 Continue (see rawRequest)
  if (r.body !== undefined && r.body.length > 1024 * 1024) return sendLarge(t, r)
  return sendHttp(t, r, keep)
}

/**
 * A large body: a server that refuses it early may close the connection while it is still being
 * sent (Go's server does too), and the reset can swallow the answer before it is read; Go's
 * client still returns it, node cannot. So a reset while sending is retried a few times; only a
 * server that never answers gets status 0.
 */
async function sendLarge(t: Target, r: FuzzRequest): Promise<Answer> {
  const { head, body } = rawRequest(t, r)
  let a = await sendRaw(t, head, body)
  for (let i = 0; i < 9 && a.status === 0 && /EPIPE|ECONNRESET/.test(a.error ?? ''); i++)
    a = await sendRaw(t, head, body)
  return a
}

/**
 * `r` as HTTP/1.1 head and body (Connection: close). The head asks `Expect: 100-continue`, as
 * curl does for large bodies: the body follows the server's 100, and an early final answer (413,
 * 401) is read instead of being lost to the reset that unread bytes cause.
 */
function rawRequest(t: Target, r: FuzzRequest): { head: Buffer; body: Buffer } {
  const body =
    typeof r.body === 'string' ? Buffer.from(r.body) : Buffer.from(r.body ?? new Uint8Array())
  const lines = [
    `${r.method} ${r.path} HTTP/1.1`,
    `Host: ${t.url.host}`,
    'Connection: close',
    'Expect: 100-continue',
    `Content-Length: ${body.length}`,
  ]
  const auth = authHeader(t, r.token)
  if (auth) lines.push(`Authorization: ${auth}`)
  if (r.contentType !== undefined) lines.push(`Content-Type: ${r.contentType}`)
  for (const [k, v] of Object.entries(r.headers ?? {})) lines.push(`${k}: ${v}`)
  return { head: Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body }
}

function sendHttp(t: Target, r: FuzzRequest, keep: number): Promise<Answer> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { ...(r.headers ?? {}) }
    const auth = authHeader(t, r.token)
    if (auth) headers.authorization = auth
    if (r.contentType !== undefined) headers['content-type'] = r.contentType
    const body =
      r.body === undefined
        ? undefined
        : typeof r.body === 'string'
          ? Buffer.from(r.body)
          : Buffer.from(r.body)
    if (body) headers['content-length'] = body.length
    const mod = t.url.protocol === 'https:' ? https : http
    let settled = false
    const done = (a: Answer) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(a)
    }
    const req = mod.request({
      host: t.url.hostname,
      port: t.url.port,
      method: r.method,
      path: r.path,
      headers,
      ...(t.ca ? { ca: t.ca } : {}),
      agent: false,
    })
    const timer = setTimeout(() => {
      done({ status: 0, contentType: '', body: '', error: `no answer within ${t.timeoutMs} ms` })
      req.destroy()
    }, t.timeoutMs)
    let responded = false
    // a server may answer (413) and close before reading a large body: the write then fails
    // with EPIPE/ECONNRESET while the answer is still on its way, so give it a moment
    req.on('error', (e) => {
      setTimeout(() => {
        if (!responded) done({ status: 0, contentType: '', body: '', error: e.message })
      }, 200)
    })
    req.on('response', (res) => {
      responded = true
      const status = res.statusCode ?? 0
      const contentType = String(res.headers['content-type'] ?? '')
      let text = ''
      res.setEncoding('utf8')
      const watching = (r.watch || /[?&]watch=/i.test(r.path)) && status === 200
      res.on('data', (chunk: string) => {
        if (text.length < keep) text += chunk
        // a watch from a future resourceVersion is judged by its first event
        if (watching && r.futureRv && text.includes('\n')) {
          done({ status, contentType, body: text })
          res.destroy()
          req.destroy()
        }
      })
      res.on('end', () => done({ status, contentType, body: text }))
      res.on('error', () => done({ status, contentType, body: text }))
      if (watching) {
        const window = r.futureRv ? t.futureWatchMs : t.watchMs
        setTimeout(() => {
          done({ status, contentType, body: text, silent: text.trim() === '' })
          res.destroy()
          req.destroy()
        }, window)
      }
    })
    req.end(body)
  })
}

/** Sends `head`, then (after a 100 Continue, when given) `body`, and reads the final answer. */
function sendRaw(t: Target, head: Buffer, body?: Buffer): Promise<Answer> {
  return new Promise((resolve) => {
    const port = Number(t.url.port || (t.url.protocol === 'https:' ? 443 : 80))
    const socket =
      t.url.protocol === 'https:'
        ? tls.connect({
            host: t.url.hostname,
            port,
            servername: 'localhost',
            ...(t.ca ? { ca: t.ca } : {}),
          })
        : net.connect({ host: t.url.hostname, port })
    let buf = Buffer.alloc(0)
    let settled = false
    let continued = false
    const done = (error?: string) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      resolve(parseRaw(buf, error))
    }
    const timer = setTimeout(() => done(`no answer within ${t.timeoutMs} ms`), t.timeoutMs)
    socket.on(t.url.protocol === 'https:' ? 'secureConnect' : 'connect', () => socket.write(head))
    socket.on('data', (c: Buffer) => {
      buf = Buffer.concat([buf, c])
      const interim = /^HTTP\/1\.1 100[^\r]*\r\n\r\n/.exec(buf.toString('latin1'))
      if (interim && body && !continued) {
        continued = true
        buf = buf.subarray(interim[0].length)
        socket.write(body)
      }
      if (complete(buf)) done()
    })
    socket.on('end', () => done())
    socket.on('close', () => done())
    socket.on('error', (e) => (buf.length > 0 ? done() : done(e.message)))
  })
}

/** True once a whole response (headers and a Content-Length body) has arrived. */
function complete(buf: Buffer): boolean {
  const text = buf.toString('latin1')
  const end = text.indexOf('\r\n\r\n')
  if (end < 0) return false
  const m = /\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, end))
  return m ? buf.length >= end + 4 + Number(m[1]) : false
}

function parseRaw(buf: Buffer, error?: string): Answer {
  const text = buf.toString('utf8')
  const m = /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(text)
  if (!m)
    return {
      status: 0,
      contentType: '',
      body: text.slice(0, 200),
      error: error ?? 'connection closed without an HTTP answer',
    }
  const end = text.indexOf('\r\n\r\n')
  const head = end < 0 ? text : text.slice(0, end)
  let body = end < 0 ? '' : text.slice(end + 4)
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) body = dechunk(body)
  const ct = /\r\ncontent-type:\s*([^\r\n]*)/i.exec(head)?.[1] ?? ''
  return { status: Number(m[1]), contentType: ct, body }
}

function dechunk(s: string): string {
  let out = ''
  let rest = s
  for (;;) {
    const nl = rest.indexOf('\r\n')
    if (nl < 0) return out
    const size = Number.parseInt(rest.slice(0, nl), 16)
    if (!size) return out
    out += rest.slice(nl + 2, nl + 2 + size)
    rest = rest.slice(nl + 4 + size)
  }
}
