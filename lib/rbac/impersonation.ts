/**
 * Impersonation as kube-apiserver does it (apiserver pkg/endpoints/filters/impersonation.go): a
 * request with `Impersonate-User` (and optionally `Impersonate-Group`, repeatable) runs as that
 * user, once the requester is allowed `impersonate` on each: a service-account user name
 * (`system:serviceaccount:<ns>:<name>`) needs it on `serviceaccounts` named `<name>` in `<ns>`,
 * any other user name on `users`, each group on `groups` (core API group, cluster scope). A
 * service account impersonated without groups gets its fixed ones (`system:serviceaccounts`,
 * `system:serviceaccounts:<ns>`); every impersonated user but `system:anonymous` gets
 * `system:authenticated` unless the groups named it or `system:unauthenticated`. Groups without a
 * user are a 400. `Impersonate-Uid` and `Impersonate-Extra-*` are not supported (400), so nothing
 * is silently dropped. Refusals are kube's 403 for the `impersonate` request.
 */
import { badRequest } from '../errors.ts'
import { authorize } from './authorizer.ts'
import { forbiddenRequest } from './forbidden-message.ts'
import {
  ALL_AUTHENTICATED,
  ALL_UNAUTHENTICATED,
  parseServiceAccountUser,
  serviceAccountGroups,
} from './service-accounts.ts'
import type { RbacPolicy, ResourceAttributes, UserInfo } from './types.ts'

const ANONYMOUS = 'system:anonymous'

export type ImpersonationRequest = { user: string; groups: string[] | undefined }

/** The impersonation a request's headers ask for; undefined when none. */
export function impersonationOf(headers: Headers): ImpersonationRequest | undefined {
  for (const [name] of headers)
    if (name.startsWith('impersonate-extra-') || name === 'impersonate-uid')
      throw badRequest(`the ${name} impersonation header is not supported by this cluster`)
  const user = headers.get('impersonate-user') ?? undefined
  const raw = headers.get('impersonate-group')
  // Headers joins repeated values with ", "; a group name holds no ", " (kube: no spaces).
  const groups =
    raw === null
      ? undefined
      : raw
          .split(',')
          .map((g) => g.trim())
          .filter(Boolean)
  if (user === undefined) {
    if (groups?.length)
      throw badRequest(
        `requested [${groups.map((g) => `{Group ${g}}`).join(' ')}] without impersonating a user`
      )
    return undefined
  }
  return { user, groups: groups?.length ? groups : undefined }
}

function check(policy: RbacPolicy, requester: UserInfo, a: ResourceAttributes) {
  const d = authorize(policy, requester, a)
  if (!d.allowed) throw forbiddenRequest(requester.name, a)
}

/** The user `requester` acts as under `req`, after checking each impersonation it asks for. */
export function impersonate(
  policy: RbacPolicy,
  requester: UserInfo,
  req: ImpersonationRequest
): UserInfo {
  const base = { resourceRequest: true, verb: 'impersonate', apiGroup: '' } as const
  const sa = parseServiceAccountUser(req.user)
  if (sa)
    check(policy, requester, {
      ...base,
      resource: 'serviceaccounts',
      namespace: sa.namespace,
      name: sa.name,
    })
  else check(policy, requester, { ...base, resource: 'users', name: req.user })
  for (const g of req.groups ?? [])
    check(policy, requester, { ...base, resource: 'groups', name: g })
  let groups = req.groups ?? (sa ? serviceAccountGroups(sa.namespace) : [])
  if (
    req.user !== ANONYMOUS &&
    !groups.some((g) => g === ALL_AUTHENTICATED || g === ALL_UNAUTHENTICATED)
  )
    groups = [...groups, ALL_AUTHENTICATED]
  return { name: req.user, groups }
}
