/**
 * Reading the rest of a request body that was answered without being read (an early 401, 413 or
 * 415), before the connection closes. Node closes a `Connection: close` (or non-keep-alive)
 * connection as soon as the answer is written; bytes the client is still sending then arrive at
 * a closed socket, the kernel resets the connection, and the reset can destroy the answer in the
 * client's receive buffer before it is read — the client sees EPIPE or ECONNRESET instead of the
 * Status. So `drainBeforeEnd` holds `res.end` for a request whose body is not complete: the answer
 * is written at once (with its Content-Length, so the client has all of it), the connection is
 * marked to close afterwards, and only when the body has been read and dropped — at most
 * MAX_DRAIN_BYTES, for at most DRAIN_TIMEOUT_MS — does the response end and the socket close. Go's
 * server (kube's) likewise reads a bounded remainder of an unread body before closing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

/** The most of an unread body read and dropped after an early answer; past it the socket closes. */
export const MAX_DRAIN_BYTES = 16 * 1024 * 1024

/** How long a client may take to finish sending a body that was answered early. */
export const DRAIN_TIMEOUT_MS = 10_000

type End = (...args: unknown[]) => ServerResponse

/** Splits `end`'s arguments (chunk, encoding, callback; each optional) as Node does. */
function endArgs(args: unknown[]): {
  chunk: string | Uint8Array | undefined
  encoding: BufferEncoding | undefined
  cb: (() => void) | undefined
} {
  const [a, b, c] = args
  if (typeof a === 'function') return { chunk: undefined, encoding: undefined, cb: a as () => void }
  const chunk = a === null || a === undefined ? undefined : (a as string | Uint8Array)
  if (typeof b === 'function') return { chunk, encoding: undefined, cb: b as () => void }
  return {
    chunk,
    encoding: typeof b === 'string' ? (b as BufferEncoding) : undefined,
    cb: typeof c === 'function' ? (c as () => void) : undefined,
  }
}

/** Writes the answer now, then ends `res` once `req`'s body is read (or the bounds are hit). */
function answerThenDrain(req: IncomingMessage, res: ServerResponse, end: End, args: unknown[]) {
  const { chunk, encoding, cb } = endArgs(args)
  if (!res.headersSent) {
    res.shouldKeepAlive = false
    if (!res.hasHeader('content-length') && !res.hasHeader('transfer-encoding'))
      res.setHeader(
        'content-length',
        chunk === undefined
          ? 0
          : typeof chunk === 'string'
            ? Buffer.byteLength(chunk, encoding)
            : chunk.byteLength
      )
  }
  if (chunk !== undefined) res.write(chunk, encoding ?? 'utf8')
  else if (!res.headersSent) res.flushHeaders()
  let read = 0
  let ended = false
  const finish = () => {
    if (ended) return
    ended = true
    clearTimeout(timer)
    req.off('data', onData)
    req.off('end', finish)
    req.off('close', finish)
    req.off('error', finish)
    end.call(res, cb)
  }
  const onData = (c: Buffer) => {
    read += c.length
    if (read > MAX_DRAIN_BYTES) finish()
  }
  const timer = setTimeout(finish, DRAIN_TIMEOUT_MS)
  timer.unref()
  req.on('data', onData)
  req.on('end', finish)
  req.on('close', finish)
  req.on('error', finish)
  req.resume()
}

/** Makes `res.end` read the rest of `req`'s body first when it was not read (see above). */
export function drainBeforeEnd(req: IncomingMessage, res: ServerResponse): void {
  const end = res.end as unknown as End
  const held = (...args: unknown[]): ServerResponse => {
    res.end = end as unknown as ServerResponse['end']
    if (req.complete || req.destroyed || res.writableEnded) return end.apply(res, args)
    answerThenDrain(req, res, end, args)
    return res
  }
  res.end = held as unknown as ServerResponse['end']
}
