/**
 * Splits a streamed answer into parsed JSON lines (a kube watch). A stream lost midway rejects
 * with a transport RemoteError, a line that is not JSON with an unreadable one; stopping early
 * cancels the stream.
 */
import { transportError, unreadableError } from './remote-error.ts'

function parse(line: string, what: string): unknown {
  try {
    return JSON.parse(line)
  } catch (e) {
    throw unreadableError(200, what, e)
  }
}

export async function* ndjson(
  body: ReadableStream<Uint8Array>,
  what: string
): AsyncGenerator<unknown> {
  const decoder = new TextDecoder()
  const reader = body.getReader()
  let buf = ''
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>
      try {
        chunk = await reader.read()
      } catch (e) {
        throw transportError(e, what)
      }
      buf += chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true })
      let nl = buf.indexOf('\n')
      while (nl >= 0) {
        const line = buf.slice(0, nl).trim()
        buf = buf.slice(nl + 1)
        if (line) yield parse(line, what)
        nl = buf.indexOf('\n')
      }
      if (chunk.done) break
    }
    if (buf.trim()) yield parse(buf, what)
  } finally {
    await reader.cancel().catch(() => undefined)
  }
}
