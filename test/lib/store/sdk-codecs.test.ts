/**
 * The byte codecs the DynamoDB client is given: base64 both ways for any length and for a view
 * into a larger buffer, and a response body gathered whole from each kind the SDK's HTTP handlers
 * hand over (a web stream in a Worker, a Node stream in Node, a Blob).
 */
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { collectBody, decodeBase64, encodeBase64 } from '../../../lib/store/sdk-codecs.ts'

const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 37 + 11) % 256)

describe('base64', () => {
  it('round-trips every length mod 3, as the standard alphabet with padding', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 300]) {
      const b = bytes(n)
      const text = encodeBase64(b)
      expect(text).toBe(btoa(String.fromCharCode(...b)))
      expect(decodeBase64(text)).toEqual(b)
    }
  })

  it('encodes only the bytes a view covers, and text as UTF-8', () => {
    const whole = bytes(10)
    expect(encodeBase64(whole.subarray(3, 7))).toBe(
      encodeBase64(Uint8Array.from(whole.slice(3, 7)))
    )
    expect(encodeBase64('héllo')).toBe(btoa('h\u00c3\u00a9llo'))
  })

  it('decodes to a plain Uint8Array of exactly the bytes', () => {
    const out = decodeBase64('AAEC')
    expect(out.constructor).toBe(Uint8Array)
    expect([...out]).toEqual([0, 1, 2])
  })
})

describe('collectBody', () => {
  const parts = [bytes(5), bytes(7000), bytes(1)]
  const all = Uint8Array.from(parts.flatMap((p) => [...p]))

  it('gathers a web stream', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (const p of parts) c.enqueue(p)
        c.close()
      },
    })
    expect(await collectBody(stream)).toEqual(all)
  })

  it('gathers a Node stream of Buffers and strings', async () => {
    expect(await collectBody(Readable.from(parts.map((p) => Buffer.from(p))))).toEqual(all)
    expect(new TextDecoder().decode(await collectBody(Readable.from(['{"a":', '1}'])))).toBe(
      '{"a":1}'
    )
  })

  it('gathers a Blob and an empty body', async () => {
    expect(await collectBody(new Blob(parts))).toEqual(all)
    expect(await collectBody(Readable.from([]))).toEqual(new Uint8Array(0))
  })
})
