/**
 * The labels a hub request is counted under, each from a bounded set: `verb` (kube's verb for a
 * resource request — get, list, watch, create, update, patch, apply, delete, deletecollection —
 * else the lowercased method, `other` for an unusual one), `route` (resource, discovery, openapi,
 * version, metrics, hooks, edge-desired, edge-reports, edge-bootstrap, edge-other, invalid,
 * other) and `resource` (`<group>/<resource>` of a built-in resource, `core` for the legacy group,
 * with `/<subresource>` for a known subresource; `custom` for any other resource; empty outside
 * resources). Nothing a client names — a space, a namespace, an object, a CRD's plural — becomes a
 * label value. Never throws: a path that does not parse is route `invalid`.
 */
import { EDGE_API_PREFIX } from '../edge/protocol.ts'
import { BUILTIN_RESOURCES } from '../kube/builtin-resources.ts'
import { parseRequestPath, splitClusterPrefix } from '../kube/request-path.ts'

export type RequestLabels = { verb: string; route: string; resource: string }

const BUILTINS = new Set(BUILTIN_RESOURCES.map((r) => `${r.group || 'core'}/${r.resource}`))
const SUBRESOURCES = new Set(['status', 'scale', 'finalize'])
const METHODS = new Set(['get', 'head', 'post', 'put', 'patch', 'delete', 'options'])

const OBJECT_VERBS: Record<string, string> = {
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
}

function methodVerb(method: string): string {
  const m = method.toLowerCase()
  return METHODS.has(m) ? m : 'other'
}

/** kube's notion of a true `watch` parameter (query.ts): present, and not "0" or "false". */
function watchParam(query: URLSearchParams): boolean {
  const v = query.get('watch')
  return v !== null && v !== '0' && v.toLowerCase() !== 'false'
}

function resourceVerb(
  method: string,
  named: boolean,
  watch: boolean,
  contentType: string | undefined
): string {
  if (method === 'PATCH' && contentType?.startsWith('application/apply-patch')) return 'apply'
  if (named) return watch && method === 'GET' ? 'watch' : (OBJECT_VERBS[method] ?? 'other')
  if (method === 'GET' || method === 'HEAD') return watch ? 'watch' : 'list'
  if (method === 'POST') return 'create'
  if (method === 'DELETE') return 'deletecollection'
  return 'other'
}

function edgeRoute(pathname: string): string {
  const rest = pathname.slice(EDGE_API_PREFIX.length)
  if (rest === '/bootstrap') return 'edge-bootstrap'
  const m = /^\/mailboxes\/[^/]+\/(desired|reports)$/.exec(rest)
  return m ? `edge-${m[1]}` : 'edge-other'
}

/** The route class of a path outside the kube API (metrics, hooks, edge-*), else undefined. */
export function specialRoute(pathname: string): string | undefined {
  if (pathname === '/metrics') return 'metrics'
  if (pathname.startsWith('/hooks/')) return 'hooks'
  if (pathname === EDGE_API_PREFIX || pathname.startsWith(`${EDGE_API_PREFIX}/`))
    return edgeRoute(pathname)
  return undefined
}

export function classifyRequest(
  method: string,
  url: URL,
  contentType: string | undefined
): RequestLabels {
  const special = specialRoute(url.pathname)
  if (special) return { verb: methodVerb(method), route: special, resource: '' }
  try {
    const path = parseRequestPath(splitClusterPrefix(url.pathname).rest)
    switch (path.kind) {
      case 'resource': {
        const base = `${path.group || 'core'}/${path.resource}`
        const sub = path.subresource
        const resource = !BUILTINS.has(base)
          ? 'custom'
          : sub === undefined
            ? base
            : `${base}/${SUBRESOURCES.has(sub) ? sub : 'other'}`
        const watch = path.watch === true || watchParam(url.searchParams)
        const verb = resourceVerb(method, path.name !== undefined, watch, contentType)
        return { verb, route: 'resource', resource }
      }
      case 'version':
        return { verb: methodVerb(method), route: 'version', resource: '' }
      case 'openapi-v2':
      case 'openapi-v3-index':
      case 'openapi-v3-doc':
        return { verb: methodVerb(method), route: 'openapi', resource: '' }
      case 'unknown':
        return { verb: methodVerb(method), route: 'other', resource: '' }
      default:
        return { verb: methodVerb(method), route: 'discovery', resource: '' }
    }
  } catch {
    return { verb: methodVerb(method), route: 'invalid', resource: '' }
  }
}
