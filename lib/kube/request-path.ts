/**
 * The kube URL grammar, in one place. Parses the part of a request path after the optional
 * `/clusters/<space>` prefix into what it addresses: a discovery document, an OpenAPI document,
 * the version endpoint, or a resource (collection, object or subresource) with its group, version,
 * namespace and name. `formatResourcePath` is the inverse used for selfLinks and messages. A
 * segment whose percent-encoding is malformed is 400 BadRequest, and so is a name, namespace or
 * space that is `.` or `..` or holds `/` or `%` once decoded (kube's ValidatePathSegmentName): such
 * a path never addresses a parent. The legacy watch paths kube still serves
 * (`/api/v1/watch/namespaces/<ns>/<resource>[/<name>]`, `/apis/<g>/<v>/watch/...`) parse as the
 * resource with `watch: true`.
 */
import { badRequest } from '../errors.ts'

export type ResourcePath = {
  kind: 'resource'
  group: string
  version: string
  resource: string
  namespace?: string
  name?: string
  subresource?: string
  /** Reached through a legacy `/watch/` path: a watch (of the one named object, if named). */
  watch?: true
}

export type RequestPath =
  | { kind: 'legacy-root' } // /api
  | { kind: 'groups-root' } // /apis
  | { kind: 'group'; group: string } // /apis/<g>
  | { kind: 'group-version'; group: string; version: string } // /api/v1, /apis/<g>/<v>
  | { kind: 'openapi-v3-index' }
  | { kind: 'openapi-v3-doc'; group: string; version: string }
  | { kind: 'openapi-v2' }
  | { kind: 'version' }
  | ResourcePath
  | { kind: 'unknown' }

/** Percent-decodes one path segment; BadRequest when its encoding is malformed. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw badRequest(
      `the request path segment "${segment.slice(0, 256)}" is not valid percent-encoding`
    )
  }
}

/** Why a decoded name cannot be a path segment (kube's IsValidPathSegmentName), if it cannot. */
export function pathSegmentNameProblems(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`]
  return ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`)
}

/** 400 BadRequest when `value` (a decoded name, namespace or space) cannot be a path segment. */
export function assertPathSegmentName(what: 'Name' | 'Namespace' | 'Workspace', value: string) {
  const problems = pathSegmentNameProblems(value)
  if (problems.length > 0)
    throw badRequest(
      `${what} parameter invalid: ${JSON.stringify(value.slice(0, 256))}: ${problems.join(';')}`
    )
}

/** Splits `/clusters/<space>/rest` into the space (undefined when absent) and the rest. */
export function splitClusterPrefix(pathname: string): { space?: string; rest: string } {
  const m = /^\/clusters\/([^/]+)(\/.*)?$/.exec(pathname)
  if (!m) return { rest: pathname }
  const space = decodeSegment(m[1] ?? '')
  assertPathSegmentName('Workspace', space)
  return { space, rest: m[2] ?? '/' }
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize'])

function parseResourceSegments(group: string, version: string, all: string[]): RequestPath {
  if (all.length === 0) return { kind: 'group-version', group, version }
  const watch = all[0] === 'watch'
  const segs = watch ? all.slice(1) : all
  let namespace: string | undefined
  let rest = segs
  // namespaces/<ns>/<resource>... addresses a namespaced resource; namespaces/<ns> alone is the
  // Namespace, and namespaces/<ns>/status|finalize its subresources.
  const namespaceSub =
    group === '' && segs.length === 3 && NAMESPACE_SUBRESOURCES.has(segs[2] ?? '')
  if (segs[0] === 'namespaces' && segs.length >= 3 && !namespaceSub) {
    namespace = segs[1]
    rest = segs.slice(2)
  }
  const [resource, name, subresource, ...extra] = rest
  if (!resource || extra.length > 0 || (watch && subresource !== undefined))
    return { kind: 'unknown' }
  const out: ResourcePath = { kind: 'resource', group, version, resource }
  if (namespace !== undefined) {
    assertPathSegmentName('Namespace', namespace)
    out.namespace = namespace
  }
  if (name !== undefined) {
    assertPathSegmentName('Name', name)
    out.name = name
  }
  if (subresource !== undefined) out.subresource = subresource
  if (watch) out.watch = true
  return out
}

/** Parses the path after the cluster prefix. Empty segments from doubled slashes are ignored. */
export function parseRequestPath(rest: string): RequestPath {
  const segs = rest
    .split('/')
    .filter((s) => s !== '')
    .map(decodeSegment)
  const [head, a, b] = segs
  if (head === 'version' && segs.length === 1) return { kind: 'version' }
  if (head === 'openapi') {
    if (a === 'v2' && segs.length === 2) return { kind: 'openapi-v2' }
    if (a !== 'v3') return { kind: 'unknown' }
    if (segs.length === 2) return { kind: 'openapi-v3-index' }
    if (b === 'api' && segs[3] && segs.length === 4)
      return { kind: 'openapi-v3-doc', group: '', version: segs[3] }
    if (b === 'apis' && segs[3] && segs[4] && segs.length === 5)
      return { kind: 'openapi-v3-doc', group: segs[3], version: segs[4] }
    return { kind: 'unknown' }
  }
  if (head === 'api') {
    if (a === undefined) return { kind: 'legacy-root' }
    return parseResourceSegments('', a, segs.slice(2))
  }
  if (head === 'apis') {
    if (a === undefined) return { kind: 'groups-root' }
    if (b === undefined) return { kind: 'group', group: a }
    return parseResourceSegments(a, b, segs.slice(3))
  }
  return { kind: 'unknown' }
}

/** The API path (without cluster prefix) of a collection or object. */
export function formatResourcePath(p: {
  group: string
  version: string
  resource: string
  namespace?: string
  name?: string
}): string {
  const base = p.group === '' ? `/api/${p.version}` : `/apis/${p.group}/${p.version}`
  const ns = p.namespace ? `/namespaces/${encodeURIComponent(p.namespace)}` : ''
  const name = p.name ? `/${encodeURIComponent(p.name)}` : ''
  return `${base}${ns}/${p.resource}${name}`
}

/** `group/version`, or just `version` for the core group. */
export function apiVersionOf(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`
}

/** Splits an apiVersion into group and version. */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/')
  if (i < 0) return { group: '', version: apiVersion }
  return { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) }
}
