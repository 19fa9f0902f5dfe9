/**
 * The one client for calling a remote HTTP API from Node: an edge cluster's kube API (the agent,
 * the local edges), the hub (the relay, the CLIs, the local start) and the center's edge API (the
 * agent). It joins paths to a base URL, sends the bearer token (read before each request, so a
 * rotated token file is picked up), bounds each request by `timeoutMs` when given (or its own), encodes JSON
 * bodies, and turns every failure into a RemoteError (remote-error.ts): no answer, a non-2xx
 * answer with its kube Status decoded, a 2xx answer that does not parse. `send` hands back the raw
 * answer for callers that read statuses themselves (304, 404); `call` reads a JSON answer;
 * `watch` streams a newline-delimited JSON answer. The transport is Node's fetch, or
 * node-transport.ts when a CA is given (fetch takes none per request); callers needing more TLS
 * (a kubeconfig's) or an in-process app (tests) inject theirs. It never retries: the callers that
 * retry do so themselves. Node only: the Worker never calls out.
 */
import { ndjson } from './ndjson.ts'
import { type FetchFn, nodeTransport } from './node-transport.ts'
import { answerError, RemoteError, transportError, unreadableError } from './remote-error.ts'

export type RemoteOptions = {
  /** e.g. https://hub.example:8787 (a trailing slash is dropped). */
  baseUrl: string
  /** Bearer token, or its reader, called before each request. */
  token?: string | (() => string | Promise<string>)
  /** PEM certificate(s) to trust for https (the default transport only). */
  ca?: string
  /** Transport; default Node's fetch (undici, keep-alive), or nodeTransport({ ca }) with a CA. */
  fetch?: FetchFn
  /** Limit for each request, answer and body; none by default. */
  timeoutMs?: number
}

export type RemoteRequest = {
  method?: string
  query?: Record<string, string>
  /** Sent as is when a string or bytes, else JSON-encoded. */
  body?: unknown
  /** The body's type; default application/json for a JSON-encoded body, none for one sent as is. */
  contentType?: string
  accept?: string
  headers?: Record<string, string>
  signal?: AbortSignal
  /** This request's limit instead of the client's `timeoutMs` (a held poll waits longer). */
  timeoutMs?: number
  /** How the request is named in errors; default `<METHOD> <path>`. */
  what?: string
}

export type Remote = {
  readonly baseUrl: string
  /** The answer, whatever its status; rejects with a RemoteError only when none came. */
  send(path: string, req?: RemoteRequest): Promise<Response>
  /** The parsed JSON of a 2xx answer (undefined when empty); a RemoteError otherwise. */
  call(path: string, req?: RemoteRequest): Promise<unknown>
  /** Each JSON line of a 2xx streaming answer (a watch); a RemoteError otherwise. */
  watch(path: string, req?: RemoteRequest): AsyncGenerator<unknown>
}

const whatOf = (path: string, req: RemoteRequest) => req.what ?? `${req.method ?? 'GET'} ${path}`

/** The body as sent, with its type: strings and bytes as they are, anything else as JSON. */
function bodyOf(req: RemoteRequest): { body?: string | Uint8Array<ArrayBuffer>; type?: string } {
  const given = req.contentType ? { type: req.contentType } : {}
  if (req.body === undefined) return {}
  if (typeof req.body === 'string') return { body: req.body, ...given }
  if (req.body instanceof Uint8Array) return { body: new Uint8Array(req.body), ...given }
  return { body: JSON.stringify(req.body), type: req.contentType ?? 'application/json' }
}

function either(a?: AbortSignal, b?: AbortSignal): AbortSignal | undefined {
  return a && b ? AbortSignal.any([a, b]) : (a ?? b)
}

/** Reads the body of a non-2xx answer into its RemoteError. */
export async function failureOf(res: Response, what: string): Promise<RemoteError> {
  const text = await res.text().catch(() => '')
  return answerError(res.status, res.statusText, text, what)
}

/** The parsed JSON of an answer (undefined when empty); a RemoteError when lost or not JSON. */
export async function readJson(res: Response, what: string): Promise<unknown> {
  let body: string
  try {
    body = await res.text()
  } catch (e) {
    throw transportError(e, what)
  }
  if (!body) return undefined
  try {
    return JSON.parse(body) as unknown
  } catch (e) {
    throw unreadableError(res.status, what, e)
  }
}

export function createRemote(o: RemoteOptions): Remote {
  const doFetch: FetchFn =
    o.fetch ?? (o.ca ? nodeTransport({ ca: o.ca }) : (input, init) => fetch(input, init))
  const baseUrl = o.baseUrl.replace(/\/+$/, '')

  async function send(path: string, req: RemoteRequest = {}): Promise<Response> {
    const what = whatOf(path, req)
    const headers = new Headers(req.headers)
    if (req.accept) headers.set('accept', req.accept)
    const token = typeof o.token === 'function' ? await o.token() : o.token
    if (token) headers.set('authorization', `Bearer ${token}`)
    const { body, type } = bodyOf(req)
    if (type && !headers.has('content-type')) headers.set('content-type', type)
    const limit = req.timeoutMs ?? o.timeoutMs
    const timeout = limit === undefined ? undefined : AbortSignal.timeout(limit)
    const signal = either(req.signal, timeout)
    const q = req.query ? `?${new URLSearchParams(req.query)}` : ''
    try {
      return await doFetch(`${baseUrl}${path}${q}`, {
        method: req.method ?? 'GET',
        headers,
        ...(body !== undefined ? { body } : {}),
        ...(signal ? { signal } : {}),
      })
    } catch (e) {
      if (timeout?.aborted && !req.signal?.aborted)
        throw new RemoteError(0, `${what}: no answer within ${limit} ms`, { cause: e })
      throw transportError(e, what)
    }
  }

  return {
    baseUrl,
    send,
    async call(path, req = {}) {
      const what = whatOf(path, req)
      const res = await send(path, req)
      if (!res.ok) throw await failureOf(res, what)
      return readJson(res, what)
    },
    async *watch(path, req = {}) {
      const what = whatOf(path, req)
      const res = await send(path, req)
      if (!res.ok) throw await failureOf(res, what)
      if (!res.body) return
      yield* ndjson(res.body, what)
    },
  }
}
