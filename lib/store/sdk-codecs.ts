/**
 * The DynamoDB client's byte codecs, given to it in place of the SDK's own (dynamo-client.ts). In
 * a Worker the SDK is bundled for the browser, and there it decodes base64 with a loop in
 * JavaScript and gathers a response body one chunk read at a time: in a profile of the Worker
 * under `wrangler dev` those were about a tenth of its CPU. The runtime's own do the same work
 * natively: `Buffer` (Node, and Workers with nodejs_compat) for base64, and `Response` for a web
 * stream. A Node response (an async iterable of Buffers, from the SDK's Node HTTP handler) is
 * concatenated as it arrives.
 */
import { Buffer } from 'node:buffer'

/** Base64 text to bytes. DynamoDB's answers are well-formed; nothing else is decoded here. */
export function decodeBase64(input: string): Uint8Array {
  const b = Buffer.from(input, 'base64')
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength)
}

/** Bytes (or text, taken as UTF-8) to base64 text. */
export function encodeBase64(input: Uint8Array | string): string {
  const b =
    typeof input === 'string'
      ? Buffer.from(input, 'utf8')
      : Buffer.from(input.buffer, input.byteOffset, input.byteLength)
  return b.toString('base64')
}

type Body = ReadableStream<Uint8Array> | Blob | AsyncIterable<Uint8Array | string>

function isWebStream(body: unknown): body is ReadableStream<Uint8Array> {
  return typeof (body as ReadableStream | null)?.getReader === 'function'
}

/** A whole response body as bytes. */
export async function collectBody(body: unknown): Promise<Uint8Array> {
  const b = body as Body
  if (isWebStream(b) || b instanceof Blob)
    return new Uint8Array(await new Response(b).arrayBuffer())
  const chunks: Uint8Array[] = []
  for await (const chunk of b) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
  const all = Buffer.concat(chunks)
  return new Uint8Array(all.buffer, all.byteOffset, all.byteLength)
}
