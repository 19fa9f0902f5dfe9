/**
 * Fuzz category `verbs`: every method — GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE, TRACE,
 * PROPFIND and a made-up one — on every kind of endpoint: health, discovery, OpenAPI, version,
 * collections, objects, the status and scale subresources, namespaces, the cross-space view
 * `/clusters/*`, a self review; with an admin token, a tenant token scoped to the fuzz space, no
 * token, an unknown token and a malformed Authorization header. Legitimate deletes and creates
 * aim at disposable `victim-` objects; legitimate updates name the object they may change.
 */
import { JSON_TYPE, type Where } from './fixture.ts'
import { type Endpoint, endpoints } from './gen-verbs-endpoints.ts'
import type { Rng } from './rng.ts'
import type { Fixture, FuzzRequest, TokenKind } from './types.ts'

const METHODS = [
  'GET',
  'HEAD',
  'OPTIONS',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'TRACE',
  'PROPFIND',
  'FUZZ',
] as const
const READS = new Set(['GET', 'HEAD', 'OPTIONS'])
const UNKNOWN = new Set(['TRACE', 'PROPFIND', 'FUZZ'])

/** Does kube refuse `method` on `e` with `token` whatever the state? */
function refuses(e: Endpoint, method: string, token: TokenKind, where: Where | 'any'): boolean {
  if (UNKNOWN.has(method)) return true
  if (e.kind === 'health') return method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS'
  if (token !== 'admin' && token !== 'user') return true
  if (e.kind === 'cross') return token !== 'admin' || !READS.has(method)
  if (token === 'user' && where !== 'space' && !READS.has(method)) return true
  if (READS.has(method)) return false
  if (e.kind === 'discovery') return true
  if (e.kind === 'review') return method !== 'POST'
  if (e.kind === 'collection' && method === 'PUT') return true
  if (e.kind === 'collection' && method === 'PATCH') return true
  return e.write?.[method]?.refuse === true || e.write?.[method] === undefined
}

function verbRequest(e: Endpoint, method: string, token: TokenKind): FuzzRequest {
  const w = e.write?.[method]
  const body = w?.body ?? (READS.has(method) ? undefined : {})
  // a refused legitimate-looking delete still gets its victim, so a wrong refusal is visible
  return {
    category: 'verbs',
    label: `${method} ${e.label} as ${token}`,
    method,
    path: w?.path ?? e.path,
    token,
    write: !READS.has(method),
    ...(body !== undefined
      ? { body: JSON.stringify(body), contentType: w?.contentType ?? JSON_TYPE }
      : {}),
    ...(w?.setup ? { setup: w.setup } : {}),
    mustRefuse: refuses(e, method, token, e.where),
    touches: w?.touches ?? [],
  }
}

export function verbCases(rng: Rng, fx: Fixture): FuzzRequest[] {
  let counter = 0
  const n = () => counter++
  const out: FuzzRequest[] = []
  for (const where of ['root', 'space'] as Where[])
    for (const e of endpoints(fx, where, n)) {
      if (where === 'space' && e.where === 'any') continue
      for (const method of METHODS) {
        const other = rng.pick(['user', 'none', 'bad', 'malformed', 'edge'] as TokenKind[])
        out.push(verbRequest(e, method, 'admin'), verbRequest(e, method, other))
      }
    }
  return rng.shuffle(out)
}
