/**
 * The opaque `continue` token of a paged list: base64url of a small JSON record holding the list's
 * resourceVersion, the collection it belongs to, and the key of the last item returned (table key,
 * plus index key for a cross-space list). The token is client input, so decoding validates it with
 * zod and a bad token is 400 BadRequest, as in kube.
 */
import { z } from 'zod'
import { badRequest } from '../errors.ts'

export const ContinueTokenSchema = z.object({
  v: z.literal(1),
  rv: z.number().int().nonnegative(),
  /** The collection the token was minted for (`scopeOf`). */
  q: z.string(),
  pk: z.string().min(1),
  sk: z.string().min(1),
  gpk: z.string().min(1).optional(),
  gsk: z.string().min(1).optional(),
})
export type ContinueToken = z.infer<typeof ContinueTokenSchema>

function toBase64Url(text: string): string {
  let binary = ''
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte)
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

function fromBase64Url(token: string): string {
  const binary = atob(token.replaceAll('-', '+').replaceAll('_', '/'))
  return new TextDecoder('utf-8', { fatal: true }).decode(
    Uint8Array.from(binary, (c) => c.charCodeAt(0))
  )
}

export function encodeContinue(token: ContinueToken): string {
  return toBase64Url(JSON.stringify(token))
}

/** Parses a token from a client; BadRequest when it is not one of ours. */
export function decodeContinue(raw: string): ContinueToken {
  let parsed: unknown
  try {
    parsed = JSON.parse(fromBase64Url(raw))
  } catch {
    throw badRequest('continue key is not valid: not an encoded continue token')
  }
  const result = ContinueTokenSchema.safeParse(parsed)
  if (!result.success) throw badRequest('continue key is not valid: unexpected content')
  return result.data
}
