/**
 * kube's 403 for a request its authorizer refused (apiserver responsewriters.Forbidden):
 * `<resource>[.<group>] ["<name>"] is forbidden: User "<user>" cannot <verb> resource
 * "<resource>[/<sub>]" in API group "<group>" in the namespace "<ns>"` (or `at the cluster
 * scope`), and `forbidden: User "<user>" cannot <verb> path "<path>"` for a non-resource request.
 */
import { type ApiError, describeTarget, forbidden } from '../errors.ts'
import type { Attributes } from './types.ts'

export function forbiddenMessage(user: string, a: Attributes): string {
  if (!a.resourceRequest) return `User "${user}" cannot ${a.verb} path "${a.path}"`
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource
  const where = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope'
  return `User "${user}" cannot ${a.verb} resource "${resource}" in API group "${a.apiGroup}" ${where}`
}

export function forbiddenRequest(user: string, a: Attributes, reason = ''): ApiError {
  const msg = forbiddenMessage(user, a) + (reason ? `: ${reason}` : '')
  if (!a.resourceRequest) return forbidden(`forbidden: ${msg}`)
  const name = a.name || undefined
  return forbidden(`${describeTarget(a.resource, a.apiGroup, name)} is forbidden: ${msg}`, {
    ...(name ? { name } : {}),
    group: a.apiGroup,
    kind: a.resource,
  })
}
