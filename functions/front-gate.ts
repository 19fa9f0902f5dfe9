/**
 * The local stack's front gate. Under `wrangler dev` the Worker is reachable on loopback ports of
 * its own (wrangler's listener and workerd's internal entry socket), where any local process can
 * reach it around the https front (infra/local/hub-front.ts) — and workerd resolves `..`,
 * `%2e%2e` and `\` in the URL before the Worker runs, so the Worker cannot refuse those the way
 * the front does (a `DELETE .../configmaps/%2e%2e` reaches it as a DELETE of the Namespace).
 * So `npm start` gives the front and the Worker one random secret per start (LOCAL_FRONT_SECRET,
 * in wrangler's env file, never on a command line): the front sends it in FRONT_HEADER on every
 * request it forwards (replacing any a client sent), and the Worker answers every request
 * without it 403 (a kube Status) before anything else runs. Production sets no secret: there the
 * check is off and Cloudflare's edge is the only way in (infra/README.md, dot-segment paths).
 * The comparison takes the same time wherever the values differ.
 */
import { type ApiError, forbidden } from '../lib/errors.ts'

export const FRONT_HEADER = 'x-edgeplane-front'

/** The Worker variable holding the secret; unset (production) turns the gate off. */
export const FRONT_SECRET_VAR = 'LOCAL_FRONT_SECRET'

function sameString(a: string, b: string): boolean {
  let diff = a.length ^ b.length
  for (let i = 0; i < b.length; i++) diff |= (a.charCodeAt(i) || 0) ^ b.charCodeAt(i)
  return diff === 0
}

/** The refusal for a request that did not come through the front, or undefined. */
export function checkFront(
  secret: string | undefined,
  headers: { get(name: string): string | null }
): ApiError | undefined {
  if (!secret) return undefined
  const given = headers.get(FRONT_HEADER)
  if (given !== null && sameString(given, secret)) return undefined
  return forbidden('this port serves the local front only: send requests to the https hub URL')
}

/** The secret of a Worker environment, if it names one. */
export function frontSecretOf(env: object): string | undefined {
  const value = (env as Record<string, unknown>)[FRONT_SECRET_VAR]
  return typeof value === 'string' && value !== '' ? value : undefined
}
