/**
 * Object bodies as stored: the JSON text (without `metadata.resourceVersion`, which lives in the
 * item's `rv` attribute and is put back on read). Bodies up to `COMPRESS_ABOVE` bytes are stored as
 * plain UTF-8 (compressing them costs more CPU than it saves); larger ones are gzip-compressed with
 * `node:zlib`'s one-shot functions, which both Node 22 and Workers (nodejs_compat) provide natively:
 * the web CompressionStream/DecompressionStream cost a stream pipeline per call, which in Node was
 * half the CPU of a translate run that confirms its manifest (docs/SCALING.md). They compress at
 * zlib's fastest level: for a manifest of 21 copies (8.5 KB of JSON) 60 µs instead of 132 µs at
 * the default level, for 2,433 bytes instead of 2,361 (the same three 1 KB write units), and the
 * result inflates no slower (Node 22, this repository's bench machine). Readers do not depend on
 * the level: items written at any level read the same. Readers tell
 * the two apart by the gzip magic bytes (JSON text never starts with them). A body whose JSON
 * exceeds 1 MiB is refused with 413 before anything is written; a compressed body larger than
 * `INLINE_LIMIT` is split into `CHUNK_BYTES` pieces stored as separate items (see `blobs.ts`),
 * because a DynamoDB item stops at 400 KB.
 */
import { constants, gunzipSync, gzipSync } from 'node:zlib'
import { tooLarge } from '../errors.ts'
import type { KubeObject } from '../kube/types.ts'

/** Largest accepted object, as JSON bytes. */
export const MAX_OBJECT_BYTES = 1_048_576
/** Compressed bodies up to this size stay inline in the head or log item. */
export const INLINE_LIMIT = 350_000
/** Bodies larger than this many JSON bytes are compressed. */
export const COMPRESS_ABOVE = 4096
/** Size of one chunk item's payload. */
export const CHUNK_BYTES = 350_000

/**
 * The most a stored gzip may expand to: far above any body (1 MiB of JSON) or manifest, so only a
 * corrupt or hostile item meets it, as an error rather than an exhausted isolate.
 */
export const MAX_INFLATED_BYTES = 64 * 1024 * 1024

/** A plain Uint8Array over a Buffer's bytes (no copy). */
const bytesOf = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength)

/** zlib's compression level for everything the store writes (see the header). */
export const GZIP_LEVEL = constants.Z_BEST_SPEED

export async function gzip(data: Uint8Array): Promise<Uint8Array> {
  return bytesOf(gzipSync(data, { level: GZIP_LEVEL }))
}

export async function gunzip(data: Uint8Array): Promise<Uint8Array> {
  return bytesOf(gunzipSync(data, { maxOutputLength: MAX_INFLATED_BYTES }))
}

/** The JSON stored for an object: everything but `metadata.resourceVersion`. */
export function serializeBody(obj: KubeObject): string {
  const { resourceVersion: _ignored, ...metadata } = obj.metadata ?? {}
  return JSON.stringify({ ...obj, metadata })
}

/** An encoded body: the stored JSON text and its gzip bytes. */
export type EncodedBody = { text: string; data: Uint8Array }

/**
 * Encodes an object for storage; 413 RequestEntityTooLarge when its JSON is over 1 MiB.
 * `what` names the object in the message.
 */
export async function encodeBody(obj: KubeObject, what: string): Promise<EncodedBody> {
  const text = serializeBody(obj)
  const bytes = new TextEncoder().encode(text)
  if (bytes.length > MAX_OBJECT_BYTES) {
    throw tooLarge(
      `${what} is too large: ${bytes.length} bytes of JSON exceeds the limit of ${MAX_OBJECT_BYTES} bytes (1 MiB)`
    )
  }
  return { text, data: bytes.length > COMPRESS_ABOVE ? await gzip(bytes) : bytes }
}

function isGzip(data: Uint8Array): boolean {
  return data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b
}

/** The JSON text of a stored body, compressed or not. */
export async function bodyText(data: Uint8Array): Promise<string> {
  return new TextDecoder().decode(isGzip(data) ? await gunzip(data) : data)
}

/** Parses stored JSON text and sets its resourceVersion. */
export function parseBody(text: string, rv: number): KubeObject {
  const obj = JSON.parse(text) as KubeObject
  obj.metadata = { ...obj.metadata, resourceVersion: String(rv) }
  return obj
}

/** Splits compressed bytes into chunk payloads. */
export function splitChunks(data: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = []
  for (let at = 0; at < data.length; at += CHUNK_BYTES) {
    chunks.push(data.subarray(at, at + CHUNK_BYTES))
  }
  return chunks
}

export function joinChunks(chunks: Uint8Array[]): Uint8Array {
  const total = chunks.reduce((sum, c) => sum + c.length, 0)
  const out = new Uint8Array(total)
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.length
  }
  return out
}
