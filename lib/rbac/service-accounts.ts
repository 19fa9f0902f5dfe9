/**
 * Service-account user names and groups, as kube spells them (k8s.io/apiserver
 * pkg/authentication/serviceaccount): `system:serviceaccount:<namespace>:<name>`, in the groups
 * `system:serviceaccounts` and `system:serviceaccounts:<namespace>`; every authenticated user is
 * in `system:authenticated`, and `system:masters` is allowed everything.
 */

export const ALL_AUTHENTICATED = 'system:authenticated'
export const ALL_UNAUTHENTICATED = 'system:unauthenticated'
export const MASTERS = 'system:masters'
export const ALL_SERVICE_ACCOUNTS = 'system:serviceaccounts'
const PREFIX = 'system:serviceaccount:'

export const serviceAccountUser = (namespace: string, name: string) =>
  `${PREFIX}${namespace}:${name}`

export const serviceAccountGroups = (namespace: string) => [
  ALL_SERVICE_ACCOUNTS,
  `${ALL_SERVICE_ACCOUNTS}:${namespace}`,
]

/** The namespace and name of a service-account user name; undefined for any other name. */
export function parseServiceAccountUser(
  user: string
): { namespace: string; name: string } | undefined {
  if (!user.startsWith(PREFIX)) return undefined
  const parts = user.slice(PREFIX.length).split(':')
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined
  return { namespace: parts[0], name: parts[1] }
}
