/**
 * Content hashes of projected bodies: base64url of the first 16 bytes of the SHA-256 of the
 * body's canonical JSON (sorted keys, see `canonicalJson`), so the same content always gets the
 * same 22-character name whatever the key order it was built with. The spec hash is the same over
 * the body without `metadata`; a change of it is what bumps a projected copy's generation. Uses
 * Web Crypto, present in Node 22 and Workers.
 */
import type { KubeObject } from '../kube/types.ts'
import { canonicalJson } from '../patch/json-values.ts'

function toBase64Url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

/** The content hash of any JSON value. */
export async function contentHash(value: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson(value))
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))
  return toBase64Url(digest.subarray(0, 16))
}

/** The hash of a body without its metadata. */
export function specHash(body: KubeObject): Promise<string> {
  const { metadata: _metadata, ...rest } = body
  return contentHash(rest)
}
