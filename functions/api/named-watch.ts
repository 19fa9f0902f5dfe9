/**
 * Watches addressed the old way, turned into the collection watch kube serves for them: a legacy
 * watch path (`/api/v1/watch/namespaces/<ns>/configmaps[/<name>]`, still used by ruby-kubeclient)
 * is a GET with `watch=true`, and its named form watches the collection with the field selector
 * `metadata.name=<name>`. As in kube's ListResource, a field selector the client gave must then
 * select that same name (it is kept as given), else 400. A GET of one object with `watch=true` is
 * not a watch: kube's item route is the get handler, which ignores the parameter.
 */
import { badRequest, methodNotAllowed } from '../../lib/errors.ts'
import { escapeFieldValue, parseFieldRequirements } from '../../lib/kube/field-selector.ts'
import type { ResourcePath } from '../../lib/kube/request-path.ts'

type WatchQuery = { watch?: boolean | undefined; fieldSelector?: string | undefined }

function nameSelector(name: string, given: string | undefined): string {
  if (given === undefined || given.trim() === '') return `metadata.name=${escapeFieldValue(name)}`
  const selects = parseFieldRequirements(given).some(
    (r) => r.field === 'metadata.name' && r.operator === '=' && r.value === name
  )
  if (!selects) throw badRequest("fieldSelector metadata.name doesn't match requested name")
  return given
}

/**
 * The path and query to serve for a legacy watch path or a named watch; the inputs unchanged for
 * anything else.
 */
export function resolveNamedWatch<Q extends WatchQuery>(
  method: string,
  path: ResourcePath,
  query: Q
): { path: ResourcePath; query: Q } {
  if (path.watch && method !== 'GET')
    throw methodNotAllowed(`${method} is not supported on a watch path; use GET`)
  if (!path.watch) return { path, query }
  const { watch: _legacy, name, ...collection } = path
  const q: Q = { ...query, watch: true }
  if (name !== undefined) q.fieldSelector = nameSelector(name, query.fieldSelector)
  return { path: collection, query: q }
}
