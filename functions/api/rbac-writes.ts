/**
 * What a hub that authorizes by RBAC (rbac-gate.ts) adds to the resource verbs (resources.ts):
 * the escalation check on every write of a Role, ClusterRole or binding, run on the object the
 * write would store (WriteOptions.admit, so a patch is judged by its result), and the self reviews
 * answered from the RBAC policy for the user the request runs as.
 */
import type { HubDeps } from '../../lib/hub/deps.ts'
import type { WriteOptions } from '../../lib/hub/options.ts'
import type { ResourcePath } from '../../lib/kube/request-path.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { answerRbacReview } from '../../lib/rbac/access-review.ts'
import { checkEscalation, isEscalationGuarded } from '../../lib/rbac/escalation.ts'
import { loadRbacPolicy } from '../../lib/rbac/load-policy.ts'
import type { UserInfo } from '../../lib/rbac/types.ts'

/** The `admit` of a write by `user` at `path`: none but for roles and bindings. */
export function escalationCheck(
  deps: HubDeps,
  user: UserInfo,
  path: ResourcePath
): Pick<WriteOptions, 'admit'> {
  if (!isEscalationGuarded(path.group, path.resource)) return {}
  const resource = path.resource
  return {
    admit: async (obj) => checkEscalation(await loadRbacPolicy(deps), user, { resource, obj }),
  }
}

export async function rbacReview(
  deps: HubDeps,
  user: UserInfo,
  kind: string,
  body: unknown
): Promise<KubeObject> {
  return answerRbacReview(kind, body, await loadRbacPolicy(deps), user)
}
