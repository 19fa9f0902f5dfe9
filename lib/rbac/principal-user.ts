/**
 * The kube user a hub principal is, for the RBAC authorizer: its name and groups with
 * `system:authenticated` added (as kube's authenticators do); the bootstrap admin token is in
 * `system:masters`, as a cluster's admin credential is. A service account's token (issued by the
 * TokenRequest of a simulated edge, lib/rbac/service-account-token.ts) is a user principal named
 * `system:serviceaccount:<ns>:<name>` carrying its groups.
 */
import type { Principal } from '../auth/tokens.ts'
import { ALL_AUTHENTICATED, MASTERS } from './service-accounts.ts'
import type { UserInfo } from './types.ts'

export function userOfPrincipal(p: Principal): UserInfo {
  const groups = [...(p.groups ?? [])]
  if (p.kind === 'admin') groups.push(MASTERS)
  groups.push(ALL_AUTHENTICATED)
  return { name: p.name, groups: [...new Set(groups)] }
}
