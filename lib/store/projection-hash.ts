/**
 * Content hashes of projected bodies: base64url of the first 16 bytes of the SHA-256 of the
 * body's canonical JSON (sorted keys, see `canonicalJson`), so the same content always gets the
 * same 22-character name whatever the key order it was built with. The spec hash is the same over
 * the body without `metadata`; a change of it is what bumps a projected copy's generation. Uses
 * Web Crypto, present in Node 22 and Workers. Both are remembered per body object (a WeakMap, so
 * they go with it): the translator hands the same body object to the writes of every mailbox
 * whose content it shares, and a body handed to the store is never changed afterwards (the store's
 * bodies are read-only, projection-types.ts), so each distinct body is hashed once.
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

const bodyHashes = new WeakMap<KubeObject, Promise<string>>()
const specHashes = new WeakMap<KubeObject, Promise<string>>()

function remembered(
  memo: WeakMap<KubeObject, Promise<string>>,
  body: KubeObject,
  hash: () => Promise<string>
): Promise<string> {
  let hit = memo.get(body)
  if (!hit) {
    hit = hash()
    memo.set(body, hit)
  }
  return hit
}

/** The content hash of a body, computed once per body object. */
export function bodyHash(body: KubeObject): Promise<string> {
  return remembered(bodyHashes, body, () => contentHash(body))
}

/** The hash of a body without its metadata, computed once per body object. */
export function specHash(body: KubeObject): Promise<string> {
  return remembered(specHashes, body, () => {
    const { metadata: _metadata, ...rest } = body
    return contentHash(rest)
  })
}
