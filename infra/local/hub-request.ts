/**
 * One HTTP(S) request from Node to the local hub, trusting its self-signed certificate (`ca`),
 * answered as a web `Response`. The global fetch cannot be given a CA per request, so the start
 * program (health checks, cron ticker, registering the simulated edges through `adminCall`) and
 * the e2e harness use this instead.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'

export type HubRequestInit = {
  method?: string
  headers?: Record<string, string>
  body?: string | Uint8Array
  /** PEM certificate(s) to trust for https URLs. */
  ca?: string
  timeoutMs?: number
}

function toResponse(res: IncomingMessage, body: Buffer): Response {
  const headers = new Headers()
  for (const [k, v] of Object.entries(res.headers)) {
    if (Array.isArray(v)) for (const item of v) headers.append(k, item)
    else if (v !== undefined) headers.set(k, v)
  }
  const status = res.statusCode ?? 0
  const empty = status === 204 || status === 304 || status < 200
  return new Response(empty ? null : new Uint8Array(body), { status, headers })
}

export function hubRequest(url: string, init: HubRequestInit = {}): Promise<Response> {
  const u = new URL(url)
  const send = u.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const req = send(
      u,
      {
        method: init.method ?? 'GET',
        headers: init.headers ?? {},
        ...(init.ca ? { ca: init.ca } : {}),
        timeout: init.timeoutMs ?? 30_000,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve(toResponse(res, Buffer.concat(chunks))))
        res.on('error', reject)
      }
    )
    req.on('timeout', () => req.destroy(new Error(`${init.method ?? 'GET'} ${url} timed out`)))
    req.on('error', reject)
    req.end(init.body)
  })
}

/** Requests to the hub at `url` with its admin token, trusting `caPem` (the local start's tools). */
export function adminCall(center: { url: string; adminToken: string; caPem: string }) {
  return (
    path: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {}
  ): Promise<Response> =>
    hubRequest(`${center.url}${path}`, {
      ...init,
      headers: { ...init.headers, authorization: `Bearer ${center.adminToken}` },
      ca: center.caPem,
    })
}
