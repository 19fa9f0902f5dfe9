/**
 * The raw-request checks of lib/kube/raw-target.ts for Node HTTP servers (the plain-Node hub, the
 * simulated edges, the local stack's TLS front). `guardListener` answers a refused method or
 * request-target with a kube Status before the request is turned into a WHATWG `Request` (which
 * would resolve `..` segments); `guardServer` answers what Node's HTTP parser itself refuses — an
 * unknown method (405), an oversized request line and header block (431), a malformed
 * request (400), a request that took too long (408) — with a Status body too, instead of Node's
 * bare status line. `GUARDED_SERVER_OPTIONS` raises the header limit so that a too-long URL gets
 * to our 414 rather than the parser's 431.
 */
import {
  type RequestListener,
  type Server,
  type ServerOptions,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http'
import type { Duplex } from 'node:stream'
import { ApiError, badRequest, methodNotAllowed } from '../lib/errors.ts'
import { checkRawRequest } from '../lib/kube/raw-target.ts'

/**
 * Request line and headers together; above it the parser refuses the request (431). Well above
 * MAX_REQUEST_TARGET, so that a too-long URL meets the 414 of raw-target.ts first.
 */
export const MAX_HEADER_BYTES = 256 * 1024

export const GUARDED_SERVER_OPTIONS: ServerOptions = { maxHeaderSize: MAX_HEADER_BYTES }

function statusBody(err: ApiError): string {
  return JSON.stringify(err.toStatus())
}

/** Answers `err` as a kube Status on a response nothing has been written to yet. */
export function writeStatus(res: ServerResponse, err: ApiError): void {
  const body = statusBody(err)
  res.writeHead(err.code, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  })
  res.end(body)
}

/** True (and answered) when the request's method or raw target is refused. */
export function refuseRawRequest(
  req: { method?: string | undefined; url?: string | undefined },
  res: ServerResponse
): boolean {
  const err = checkRawRequest(req.method ?? '', req.url ?? '')
  if (!err) return false
  writeStatus(res, err)
  return true
}

/** `listener`, reached only by requests whose method and raw target pass the checks. */
export function guardListener(listener: RequestListener): RequestListener {
  return (req, res) => {
    if (!refuseRawRequest(req, res)) listener(req, res)
  }
}

type ParserError = Error & { code?: string }

/** The Status for an error Node's HTTP parser raised on a connection. */
export function parserErrorStatus(err: ParserError): ApiError {
  switch (err.code) {
    case 'HPE_INVALID_METHOD':
      return methodNotAllowed('the server does not allow this method on the requested resource')
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(
        431,
        'RequestHeaderFieldsTooLarge',
        `the request line and headers exceed ${MAX_HEADER_BYTES} bytes`
      )
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(408, 'Timeout', 'the request was not received in time')
    default:
      return badRequest(`malformed HTTP request (${err.code ?? 'parse error'})`)
  }
}

/** A response under way on the socket (Node's own handler checks the same). */
function responseStarted(socket: Duplex): boolean {
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage
  return inFlight?.headersSent === true
}

function answerClientError(err: ParserError, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable || responseStarted(socket)) {
    socket.destroy()
    return
  }
  const status = parserErrorStatus(err)
  const body = statusBody(status)
  socket.end(
    `HTTP/1.1 ${status.code} ${STATUS_CODES[status.code] ?? 'Error'}\r\n` +
      'Content-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body
  )
}

/** Answers the parser's refusals on `server` with a Status body. */
export function guardServer<S extends Server>(server: S): S {
  server.on('clientError', answerClientError)
  return server
}

/**
 * Guards a server that is already built (e.g. by @hono/node-server's `serve`): its request
 * listeners are wrapped by `guardListener` and the parser's refusals answered with a Status. Its
 * header limit stays as created (Node's default 16 KiB: a longer request line is a 431 Status).
 */
export function guardBuiltServer<S extends Server>(server: S): S {
  const listeners = server.listeners('request') as RequestListener[]
  server.removeAllListeners('request')
  for (const listener of listeners) server.on('request', guardListener(listener))
  return guardServer(server)
}
