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
import { type LinkedSignal, linkedSignal } from '../linked-signal.ts'
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

/**
 * The request's own signal when it has no limit; with one, a signal that also ends at the limit
 * (answer and body), letting go of the caller's signal once the request is done (linked-signal.ts).
 */
function limitOf(signal: AbortSignal | undefined, limit: number | undefined) {
  if (limit === undefined) return { signal, link: undefined }
  const link: LinkedSignal = linkedSignal([signal], limit)
  return { signal: link.signal, link }
}

const isTimeout = (link: LinkedSignal | undefined) =>
  (link?.signal.reason as Error | undefined)?.name === 'TimeoutError'

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

  /** The answer, and how to let go of its limit once its body is read (or it failed). */
  async function open(path: string, req: RemoteRequest) {
    const what = whatOf(path, req)
    const headers = new Headers(req.headers)
    if (req.accept) headers.set('accept', req.accept)
    const token = typeof o.token === 'function' ? await o.token() : o.token
    if (token) headers.set('authorization', `Bearer ${token}`)
    const { body, type } = bodyOf(req)
    if (type && !headers.has('content-type')) headers.set('content-type', type)
    const limit = req.timeoutMs ?? o.timeoutMs
    const { signal, link } = limitOf(req.signal, limit)
    const release = () => link?.release()
    const q = req.query ? `?${new URLSearchParams(req.query)}` : ''
    try {
      const res = await doFetch(`${baseUrl}${path}${q}`, {
        method: req.method ?? 'GET',
        headers,
        ...(body !== undefined ? { body } : {}),
        ...(signal ? { signal } : {}),
      })
      return { res, release }
    } catch (e) {
      release()
      if (isTimeout(link) && !req.signal?.aborted)
        throw new RemoteError(0, `${what}: no answer within ${limit} ms`, { cause: e })
      throw transportError(e, what)
    }
  }

  // A raw answer's limit goes when it fires: the caller reads the body when it will.
  const send = async (path: string, req: RemoteRequest = {}) => (await open(path, req)).res

  return {
    baseUrl,
    send,
    async call(path, req = {}) {
      const what = whatOf(path, req)
      const { res, release } = await open(path, req)
      try {
        if (!res.ok) throw await failureOf(res, what)
        return await readJson(res, what)
      } finally {
        release()
      }
    },
    async *watch(path, req = {}) {
      const what = whatOf(path, req)
      const { res, release } = await open(path, req)
      try {
        if (!res.ok) throw await failureOf(res, what)
        if (!res.body) return
        yield* ndjson(res.body, what)
      } finally {
        release()
      }
    },
  }
}
