/**
 * Media-type negotiation, in one place, as kube's apiserver does it
 * (k8s.io/apiserver/pkg/endpoints/handlers/negotiation). Content-Type: each kind of body has its
 * list of accepted types — objects (create, update, DeleteOptions) JSON, YAML or Kubernetes
 * protobuf; patches the four patch types; the non-kube endpoints (hooks, edge API) JSON or YAML —
 * and a missing Content-Type means JSON where JSON is accepted (kube takes the first type it
 * serves); anything else, or a header that is not a media type, is 415 UnsupportedMediaType
 * listing the accepted types. Parameters such as `; charset=utf-8` are allowed. Accept: its
 * clauses in order of preference (`parseAccept`), read by Table printing (table.ts) and aggregated
 * discovery (discovery-routes.ts).
 */
import { unsupportedMediaType } from '../../lib/errors.ts'
import { PATCH_TYPES, type PatchType } from '../../lib/hub/patch.ts'

export type BodyFormat = 'json' | 'yaml' | 'protobuf'

const OBJECT_TYPES = new Map<string, BodyFormat>([
  ['application/json', 'json'],
  ['application/yaml', 'yaml'],
  ['application/vnd.kubernetes.protobuf', 'protobuf'],
])

/** The media types the non-kube endpoints take (`readBody`). */
const PLAIN_TYPES = new Map<string, BodyFormat>([
  ['application/json', 'json'],
  ['application/yaml', 'yaml'],
])

const PATCH_TYPE_MAP = new Map<string, PatchType>(PATCH_TYPES.map((p) => [p, p]))

const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/

/** The lower-cased `type/subtype` of a Content-Type header, or undefined when it is not one. */
export function mediaTypeOf(contentType: string): string | undefined {
  const base = (contentType.split(';')[0] ?? '').trim().toLowerCase()
  return TOKEN.test(base) ? base : undefined
}

/**
 * What `accepted` maps the Content-Type to; `missing` when no type is given (a 415 when there is
 * no default); 415 listing the accepted types for any other.
 */
function negotiate<T>(
  contentType: string | null | undefined,
  accepted: ReadonlyMap<string, T>,
  missing: T | undefined
): T {
  const given = contentType !== null && contentType !== undefined && contentType.trim() !== ''
  const type = given ? mediaTypeOf(contentType) : undefined
  const found = given ? (type === undefined ? undefined : accepted.get(type)) : missing
  if (found === undefined)
    throw unsupportedMediaType(
      `the body of the request was in an unknown format - accepted media types include: ${[...accepted.keys()].join(', ')}`
    )
  return found
}

/** The format of an object body (create, update, DeleteOptions); 415 for any other media type. */
export const objectBodyFormat = (contentType: string | null | undefined): BodyFormat =>
  negotiate(contentType, OBJECT_TYPES, 'json')

/** The format of a hook or edge API body: JSON (also when no type is given) or YAML, else 415. */
export const plainBodyFormat = (contentType: string | null | undefined): BodyFormat =>
  negotiate(contentType, PLAIN_TYPES, 'json')

/** The patch type of a PATCH; 415 for any other media type, a missing one included. */
export const patchTypeOf = (contentType: string | null | undefined): PatchType =>
  negotiate(contentType, PATCH_TYPE_MAP, undefined)

export type MediaRange = { type: string; params: Record<string, string>; q: number }

/** The clauses of an Accept header, most preferred first (by q, then in the order given). */
export function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = []
  for (const clause of header.split(',')) {
    const [type = '', ...rest] = clause.split(';').map((p) => p.trim())
    if (!type) continue
    const params: Record<string, string> = {}
    for (const p of rest) {
      const eq = p.indexOf('=')
      if (eq > 0)
        params[p.slice(0, eq).trim().toLowerCase()] = p
          .slice(eq + 1)
          .trim()
          .replace(/^"|"$/g, '')
    }
    const q = params.q === undefined ? 1 : Number(params.q)
    ranges.push({ type: type.toLowerCase(), params, q: Number.isFinite(q) ? q : 0 })
  }
  return ranges.filter((r) => r.q > 0).sort((a, b) => b.q - a.q)
}
