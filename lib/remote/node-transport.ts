/**
 * The remote client's transport: a fetch-shaped function over node:http/node:https, because
 * Node's global fetch takes no per-request CA, client certificate or agent (NODE_EXTRA_CA_CERTS is
 * read once, at process start, and is honoured here too). `connect` gives the request options of
 * each request — a CA (`--center-ca`, the local hub's self-signed certificate), or everything a
 * kubeconfig supplies (client-node's `applyToHTTPSOptions`: headers, an agent with the CA, client
 * certificate and `insecure-skip-tls-verify`, a proxy). The answer's body streams (watches), the
 * abort signal ends the request at any point, and a request that gets no answer rejects with a
 * TypeError('fetch failed') whose cause is the socket error, as global fetch does.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest, type RequestOptions } from 'node:https'
import { Readable } from 'node:stream'

export type FetchFn = (input: string, init?: RequestInit) => Promise<Response>

/** Per-request options for node:http(s): ca, cert, key, agent, auth, rejectUnauthorized, headers. */
export type ConnectOptions = Omit<RequestOptions, 'method' | 'signal' | 'path' | 'host' | 'port'>
export type Connect = ConnectOptions | (() => ConnectOptions | Promise<ConnectOptions>)

const NULL_BODY = new Set([101, 204, 205, 304])

function toHeaders(res: IncomingMessage): Headers {
  const h = new Headers()
  for (const [k, v] of Object.entries(res.headers)) {
    if (Array.isArray(v)) for (const item of v) h.append(k, item)
    else if (v !== undefined) h.set(k, v)
  }
  return h
}

function bodyBytes(body: RequestInit['body']): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined
  if (typeof body === 'string' || body instanceof Uint8Array) return body
  throw new TypeError('only string and byte bodies are supported')
}

function requestHeaders(c: ConnectOptions, init: RequestInit): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(c.headers ?? {}))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v)
  new Headers(init.headers).forEach((v, k) => {
    out[k] = v
  })
  return out
}

export function nodeTransport(connect: Connect = {}): FetchFn {
  return async (input, init = {}) => {
    const c = typeof connect === 'function' ? await connect() : connect
    const url = new URL(input)
    const method = init.method ?? 'GET'
    const headers = requestHeaders(c, init)
    const body = bodyBytes(init.body)
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body))
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest
    const signal = init.signal ?? undefined
    return new Promise<Response>((resolve, reject) => {
      const req = send(url, { ...c, method, headers, ...(signal ? { signal } : {}) }, (res) => {
        const status = res.statusCode ?? 0
        const empty = NULL_BODY.has(status) || method === 'HEAD'
        if (empty) res.resume()
        const stream = empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>)
        try {
          resolve(
            new Response(stream, {
              status,
              statusText: res.statusMessage ?? '',
              headers: toHeaders(res),
            })
          )
        } catch (e) {
          res.destroy()
          reject(new TypeError('fetch failed', { cause: e }))
        }
      })
      req.on('error', (e) => reject(new TypeError('fetch failed', { cause: e })))
      req.end(body)
    })
  }
}
