/**
 * The RBAC gate of a hub in edge-cluster mode (`HubDeps.authorization === 'rbac'`: the simulated
 * edges, infra/edge-sim/start.ts): every request past authentication runs as the principal's kube
 * user (lib/rbac/principal-user.ts), or as the user its `Impersonate-*` headers name once the
 * principal may impersonate them (lib/rbac/impersonation.ts), and is refused with kube's 403
 * unless RBAC allows its verb on what it addresses (lib/rbac/authorizer.ts). The self reviews are
 * authorized like any create (kube's `system:basic-user` grants them to every authenticated
 * user). The center keeps its token-scope model and never runs this.
 */
import type { Principal } from '../../lib/auth/tokens.ts'
import type { HubDeps } from '../../lib/hub/deps.ts'
import type { RequestPath } from '../../lib/kube/request-path.ts'
import { authorize } from '../../lib/rbac/authorizer.ts'
import { forbiddenRequest } from '../../lib/rbac/forbidden-message.ts'
import { impersonate, impersonationOf } from '../../lib/rbac/impersonation.ts'
import { loadRbacPolicy } from '../../lib/rbac/load-policy.ts'
import { userOfPrincipal } from '../../lib/rbac/principal-user.ts'
import { nonResourceAttributes, resourceAttributes } from '../../lib/rbac/request-attributes.ts'
import type { UserInfo } from '../../lib/rbac/types.ts'
import type { ApiQuery } from './query.ts'

export type GateRequest = {
  deps: HubDeps
  principal: Principal
  req: Request
  /** The path after any `/clusters/<space>` prefix, as parsed, and as the client sent it. */
  path: RequestPath
  rawPath: string
  query: ApiQuery
}

/** The user the request runs as; undefined when the hub does not authorize by RBAC. */
export async function rbacGate(g: GateRequest): Promise<UserInfo | undefined> {
  if (g.deps.authorization !== 'rbac') return undefined
  const policy = await loadRbacPolicy(g.deps)
  const requester = userOfPrincipal(g.principal)
  const asked = impersonationOf(g.req.headers)
  const user = asked ? impersonate(policy, requester, asked) : requester
  const attrs =
    g.path.kind === 'resource'
      ? resourceAttributes(g.req.method, g.path, g.query)
      : nonResourceAttributes(g.req.method, g.rawPath)
  if (!authorize(policy, user, attrs).allowed) throw forbiddenRequest(user.name, attrs)
  return user
}
