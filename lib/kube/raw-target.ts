/**
 * Checks of a request as it arrived on the wire — its method and raw request-target — made before
 * anything parses the URL. The WHATWG URL parser (Node's `Request`, workerd, Cloudflare's edge)
 * resolves dot segments (`.`, `..`, and their `%2e` spellings) and treats `\` as `/`, so
 * `DELETE .../configmaps/%2e%2e` would reach the app as a DELETE of the Namespace. kube never
 * normalizes paths and refuses `.`/`..` names, so any such segment is refused here with 400.
 * Also refused: targets longer than MAX_REQUEST_TARGET (414, Cloudflare's URL limit), methods the
 * API does not serve (405), targets that are not an absolute path, raw control characters, spaces
 * or `#` (the parser would drop what follows as a fragment), a raw `\` in the path (the parser reads
 * it as `/`), and malformed percent-encoding in the path (400). Pure string checks: used by the
 * Node server, the local stack's TLS front and the Worker.
 */
import { ApiError, badRequest, methodNotAllowed } from '../errors.ts'

/** The longest request-target accepted, in characters (Cloudflare's edge refuses longer URLs). */
export const MAX_REQUEST_TARGET = 16 * 1024

/** The methods the API serves; any other is 405. */
export const SERVED_METHODS: ReadonlySet<string> = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
])

export const uriTooLong = (length: number) =>
  new ApiError(
    414,
    'RequestURITooLong',
    `the request URI is ${length} characters long; at most ${MAX_REQUEST_TARGET} are accepted`
  )

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i
const PERCENT = /%(?![0-9a-f]{2})/i

/** The first character a target may not carry raw (controls, space, DEL, `#`), if any. */
function forbiddenRaw(target: string): string | undefined {
  for (const ch of target) {
    const c = ch.charCodeAt(0)
    if (c <= 0x20 || c === 0x7f || ch === '#') return ch
  }
  return undefined
}

const quoted = (s: string) => JSON.stringify(s.length > 256 ? `${s.slice(0, 256)}...` : s)

/** Why one raw path segment is refused, or undefined. */
function segmentProblem(segment: string): ApiError | undefined {
  if (DOT_SEGMENT.test(segment)) {
    const dots = segment.replace(/%2e/gi, '.')
    return badRequest(`invalid path segment ${quoted(segment)}: may not be '${dots}'`)
  }
  if (!segment.includes('%')) return undefined
  if (PERCENT.test(segment))
    return badRequest(`the request path segment ${quoted(segment)} is not valid percent-encoding`)
  try {
    decodeURIComponent(segment)
  } catch {
    return badRequest(`the request path segment ${quoted(segment)} is not valid percent-encoding`)
  }
  return undefined
}

/**
 * The error to answer a request with, judged on its method and raw request-target (origin-form:
 * path and query as sent), or undefined when it may go on.
 */
export function checkRawRequest(method: string, target: string): ApiError | undefined {
  if (!SERVED_METHODS.has(method))
    return methodNotAllowed(
      `the server does not allow the method ${quoted(method)} on the requested resource`
    )
  if (target.length > MAX_REQUEST_TARGET) return uriTooLong(target.length)
  if (!target.startsWith('/')) return badRequest('the request target must be an absolute path')
  const bad = forbiddenRaw(target)
  if (bad !== undefined)
    return badRequest(
      `the request target has a character that must be percent-encoded: ${JSON.stringify(bad)}`
    )
  const q = target.indexOf('?')
  const path = q < 0 ? target : target.slice(0, q)
  if (path.includes('\\'))
    return badRequest('the request path has a raw "\\"; a client must percent-encode it as %5C')
  for (const segment of path.split('/')) {
    const problem = segmentProblem(segment)
    if (problem) return problem
  }
  return undefined
}

/** The origin-form target (path and query) of an absolute URL string, as written in it. */
export function targetOfUrl(url: string): string {
  const scheme = url.indexOf('://')
  if (scheme < 0) return url
  const slash = url.indexOf('/', scheme + 3)
  const query = url.indexOf('?', scheme + 3)
  const start = slash < 0 ? query : query < 0 ? slash : Math.min(slash, query)
  if (start < 0) return '/'
  const target = url.slice(start)
  return target.startsWith('/') ? target : `/${target}`
}
