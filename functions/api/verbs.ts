/**
 * Which kube verb a request on a resource is, and whether the resource serves it. kube-apiserver
 * registers a route only for the verbs a resource's storage implements, which are the verbs its
 * discovery lists (ResourceInfo.verbs): any other method on the path is go-restful's 405, which
 * kube renders as a Status with reason MethodNotAllowed, the message below and empty details
 * (genericapiserver's serviceErrorHandler, apimachinery's NewGenericServerResponse). So a
 * collection delete of Namespaces, which have no `deletecollection`, is 405 before anything is
 * read or deleted. The same 405 answers any method but GET and HEAD on discovery, OpenAPI and
 * version documents.
 */
import { ApiError } from '../../lib/errors.ts'
import type { ResourceInfo } from '../../lib/kube/resource-info.ts'

export const METHOD_NOT_ALLOWED = 'the server does not allow this method on the requested resource'

/** kube's 405 Status for a method the path has no route for. */
export function methodNotAllowedStatus(): ApiError {
  return new ApiError(405, 'MethodNotAllowed', METHOD_NOT_ALLOWED, { details: {} })
}

const COLLECTION_VERBS: Record<string, string> = {
  POST: 'create',
  DELETE: 'deletecollection',
}

const OBJECT_VERBS: Record<string, string> = {
  GET: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
}

/** The verb of `method` on a collection (`named` false) or one object, if it is one. */
export function resourceVerb(method: string, named: boolean, watch: boolean): string | undefined {
  if (named) return OBJECT_VERBS[method]
  if (method === 'GET') return watch ? 'watch' : 'list'
  return COLLECTION_VERBS[method]
}

/** 405 unless the resource serves the verb of `method` on this path. */
export function assertServedVerb(
  info: Pick<ResourceInfo, 'verbs'>,
  method: string,
  named: boolean,
  watch: boolean
): void {
  const verb = resourceVerb(method, named, watch)
  if (verb === undefined || !info.verbs.includes(verb)) throw methodNotAllowedStatus()
}

/** 405 unless `method` reads a document (GET, or HEAD, which is a GET without the body). */
export function assertReadOnly(method: string): void {
  if (method !== 'GET' && method !== 'HEAD') throw methodNotAllowedStatus()
}
