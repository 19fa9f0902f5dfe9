/**
 * Reads a newline-delimited JSON stream (a watch response) one event at a time, for tests that
 * open watches through `app.request()`.
 */
export type NdjsonReader = { next(): Promise<any>; close(): Promise<void> }

export function ndjsonReader(body: ReadableStream<Uint8Array>): NdjsonReader {
  const reader = body.getReader()
  const dec = new TextDecoder()
  let buf = ''
  return {
    async next(): Promise<any> {
      for (;;) {
        const nl = buf.indexOf('\n')
        if (nl >= 0) {
          const line = buf.slice(0, nl)
          buf = buf.slice(nl + 1)
          return JSON.parse(line)
        }
        const { value, done } = await reader.read()
        if (done) return undefined
        buf += dec.decode(value, { stream: true })
      }
    },
    close: () => reader.cancel(),
  }
}
