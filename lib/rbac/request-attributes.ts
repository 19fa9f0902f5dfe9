/**
 * What a request asks, in the authorizer's terms (apiserver pkg/endpoints/request RequestInfo):
 * a resource request's verb from its method and whether it names an object — GET is `get` on an
 * object and `list` on a collection, `watch` when it watches (`?watch=true` or a legacy `/watch/`
 * path); POST `create`, PUT `update`, PATCH `patch`; DELETE `delete` on an object and
 * `deletecollection` on a collection. A list or watch whose field selector is
 * `metadata.name=<n>` names `<n>`, so rules with resourceNames apply to it as in kube. Any other
 * path (discovery, OpenAPI, /version) is a non-resource request whose verb is the lowercased
 * method. As in kube, a Namespace addressed by name is also in itself (`/api/v1/namespaces/foo` is
 * in the namespace "foo"), so a RoleBinding there can grant reading or deleting it.
 */
import type { ResourcePath } from '../kube/request-path.ts'
import type { Attributes, ResourceAttributes } from './types.ts'

const WRITE_VERBS: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'patch' }

function nameFromFieldSelector(selector: string | undefined): string | undefined {
  if (!selector) return undefined
  const m = /^metadata\.name==?([^,]+)$/.exec(selector.trim())
  return m?.[1]
}

function verbOf(method: string, named: boolean, watch: boolean): string {
  if (method === 'GET' || method === 'HEAD') return watch ? 'watch' : named ? 'get' : 'list'
  if (method === 'DELETE') return named ? 'delete' : 'deletecollection'
  return WRITE_VERBS[method] ?? method.toLowerCase()
}

export type QueryFacts = { watch: boolean; fieldSelector?: string | undefined }

export function resourceAttributes(
  method: string,
  path: ResourcePath,
  q: QueryFacts
): ResourceAttributes {
  const watch = q.watch || path.watch === true
  const verb = verbOf(method, path.name !== undefined, watch)
  const name =
    path.name ??
    (verb === 'list' || verb === 'watch' ? nameFromFieldSelector(q.fieldSelector) : undefined)
  const namespace =
    path.namespace ?? (path.group === '' && path.resource === 'namespaces' ? path.name : undefined)
  return {
    resourceRequest: true,
    verb,
    apiGroup: path.group,
    apiVersion: path.version,
    resource: path.resource,
    ...(path.subresource ? { subresource: path.subresource } : {}),
    ...(namespace ? { namespace } : {}),
    ...(name !== undefined ? { name } : {}),
  }
}

export function nonResourceAttributes(method: string, path: string): Attributes {
  return { resourceRequest: false, verb: method.toLowerCase(), path }
}
