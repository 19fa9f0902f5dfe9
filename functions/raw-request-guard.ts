/**
 * The raw-request checks of lib/kube/raw-target.ts for Node HTTP servers (the plain-Node hub, the
 * simulated edges, the local stack's TLS front). `guardListener` answers a refused method or
 * request-target with a kube Status before the request is turned into a WHATWG `Request` (which
 * would resolve `..` segments); `guardServer` answers what Node's HTTP parser itself refuses — an
 * unknown method (405), an oversized request line and header block (431), a malformed
 * request (400), a request that took too long (408) — with a Status body too, instead of Node's
 * bare status line, and a CONNECT (which Node hands to a `connect` listener, or drops the socket
 * without one) with 405. An HTTP/1.1 request without a Host header is a 400 Status here rather
 * than Node's empty 400 (`requireHostHeader` is turned off for that). A request answered before
 * its body was read has the body drained before the connection closes (early-answer-drain.ts).
 * `GUARDED_SERVER_OPTIONS` raises the header limit so that a too-long URL gets to our 414 rather
 * than the parser's 431.
 */
import {
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerOptions,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http'
import type { Duplex } from 'node:stream'
import { ApiError, badRequest, methodNotAllowed } from '../lib/errors.ts'
import { checkRawRequest } from '../lib/kube/raw-target.ts'
import { drainBeforeEnd } from './early-answer-drain.ts'

/**
 * Request line and headers together; above it the parser refuses the request (431). Well above
 * MAX_REQUEST_TARGET, so that a too-long URL meets the 414 of raw-target.ts first.
 */
export const MAX_HEADER_BYTES = 256 * 1024

export const GUARDED_SERVER_OPTIONS: ServerOptions = {
  maxHeaderSize: MAX_HEADER_BYTES,
  requireHostHeader: false,
}

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

/** An HTTP/1.1 request must name its Host (RFC 9112 §3.2; Go's server refuses it too). */
function missingHost(req: IncomingMessage): boolean {
  const http11 = req.httpVersionMajor === 1 && req.httpVersionMinor >= 1
  return http11 && req.headers.host === undefined
}

/**
 * `listener`, reached only by requests whose method, raw target and Host pass the checks; every
 * answer, refusals included, drains an unread body before the connection closes.
 */
export function guardListener(listener: RequestListener): RequestListener {
  return (req, res) => {
    drainBeforeEnd(req, res)
    if (missingHost(req)) return writeStatus(res, badRequest('missing required Host header'))
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

/** Writes `status` straight onto a socket no response is under way on, and closes it. */
function endSocketWith(socket: Duplex, status: ApiError): void {
  const body = statusBody(status)
  socket.end(
    `HTTP/1.1 ${status.code} ${STATUS_CODES[status.code] ?? 'Error'}\r\n` +
      'Content-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body
  )
}

function answerClientError(err: ParserError, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable || responseStarted(socket)) {
    socket.destroy()
    return
  }
  endSocketWith(socket, parserErrorStatus(err))
}

/** CONNECT: the API tunnels nothing, so 405 like any other method it does not serve. */
function answerConnect(_req: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy())
  endSocketWith(
    socket,
    methodNotAllowed('the server does not allow the method "CONNECT" on the requested resource')
  )
}

/** Answers the parser's refusals on `server` with a Status body. */
export function guardServer<S extends Server>(server: S): S {
  server.on('clientError', answerClientError)
  server.on('connect', answerConnect)
  ;(server as { requireHostHeader?: boolean }).requireHostHeader = false
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
