/**
 * A minimal fetch over node:http/node:https that trusts a given CA, for `--center-ca`: Node's
 * global fetch takes no per-request CA (NODE_EXTRA_CA_CERTS works too, but only when set before
 * the process starts). It supports what the center client uses: method, headers, a string body,
 * an abort signal, and a buffered answer as a standard Response.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { FetchFn } from './center-client.ts'

const NULL_BODY = new Set([101, 204, 205, 304])

function toHeaders(res: IncomingMessage): Headers {
  const h = new Headers()
  for (const [k, v] of Object.entries(res.headers)) {
    if (Array.isArray(v)) for (const item of v) h.append(k, item)
    else if (v !== undefined) h.set(k, v)
  }
  return h
}

export function fetchWithCa(caPem: string): FetchFn {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input)
      const headers: Record<string, string> = {}
      new Headers(init.headers).forEach((v, k) => {
        headers[k] = v
      })
      const body = typeof init.body === 'string' ? init.body : undefined
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body))
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest
      const req = send(
        url,
        { method: init.method ?? 'GET', headers, ca: caPem, signal: init.signal ?? undefined },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('error', reject)
          res.on('end', () => {
            const status = res.statusCode ?? 0
            const payload = NULL_BODY.has(status) ? null : Buffer.concat(chunks)
            resolve(new Response(payload, { status, headers: toHeaders(res) }))
          })
        }
      )
      req.on('error', (e) => reject(new TypeError('fetch failed', { cause: e })))
      req.end(body)
    })
}
