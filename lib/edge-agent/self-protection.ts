/**
 * What the agent never creates, updates or deletes, whatever its mailbox holds (issue 35,
 * breach 5): itself. Its own namespace (the one it runs in and keeps its ownership record in,
 * from its configuration: `--namespace` or the pod's own, infra/edge-agent/record-namespace.ts;
 * `edgeplane-system` by default, as the bootstrap manifests, lib/edge/manifests.ts) and everything
 * in it — its ServiceAccount, the Secret with its edge token, its Deployment, Role and
 * RoleBinding, the ownership record's ConfigMaps, and any Pod that would mount that Secret — the
 * Namespace object itself, and its cluster-scoped ClusterRole and ClusterRoleBinding (the
 * bootstrap's names, `edgeplane-agent`); and the tenant identities it keeps (tenant-binder.ts):
 * the namespace `edgeplane-tenants` and what is in it, and RBAC objects named
 * `edgeplane-tenant:*`. A desired entry for any of them is refused before it
 * is read, applied or adopted, and reported to the center as failed (`ApplyFailed`, the message
 * saying why); an entry of the ownership record for one (an older agent's) is forgotten, never
 * deleted (prune.ts); none is ever upsynced. Pure.
 */
import { AGENT_NAME } from '../edge/manifests.ts'
import { TENANTS_NAMESPACE } from '../edge/manifests-tenants.ts'
import type { Problem } from '../edge/protocol.ts'
import { type Keyed, refOf } from './refs.ts'
import { TENANT_RBAC_PREFIX } from './tenant-identity.ts'

const RBAC = 'rbac.authorization.k8s.io'

/** The agent's own objects: its namespace and the names of its cluster-scoped RBAC. */
export type AgentSelf = {
  namespace: string
  /** Names of its ClusterRoles and ClusterRoleBindings (default: the bootstrap's). */
  names?: readonly string[]
}

/** The agent's self from the namespace it runs in, with the bootstrap's names. */
export const agentSelf = (
  namespace: string,
  names: readonly string[] = [AGENT_NAME]
): AgentSelf => ({
  namespace,
  names,
})

const isNamespace = (r: Keyed) => r.group === '' && r.resource === 'namespaces'

/** Why the object is the agent's own and never written, or undefined when it is not. */
export function protectedReason(r: Keyed, self: AgentSelf): string | undefined {
  if (r.namespace === self.namespace)
    return `it is in the edge agent's own namespace "${self.namespace}"`
  if (isNamespace(r) && r.name === self.namespace)
    return `it is the edge agent's own namespace "${self.namespace}"`
  if (r.namespace === TENANTS_NAMESPACE || (isNamespace(r) && r.name === TENANTS_NAMESPACE))
    return `it is in the edge's tenant identities namespace "${TENANTS_NAMESPACE}"`
  if (r.group === RBAC && r.name.startsWith(TENANT_RBAC_PREFIX))
    return `it is named like the edge agent's tenant RBAC ("${TENANT_RBAC_PREFIX}*")`
  const names = self.names ?? [AGENT_NAME]
  if (
    r.group === RBAC &&
    (r.resource === 'clusterroles' || r.resource === 'clusterrolebindings') &&
    names.includes(r.name)
  )
    return `it is the edge agent's own ${r.resource === 'clusterroles' ? 'ClusterRole' : 'ClusterRoleBinding'} "${r.name}"`
  return undefined
}

/** The problem the agent reports for a desired entry it refuses to write. */
export function protectedProblem(entry: Parameters<typeof refOf>[0], why: string): Problem {
  return {
    ...refOf(entry),
    reason: 'ApplyFailed',
    message: `refused by the edge agent: ${why}; the agent never creates, updates or deletes its own namespace, credentials or RBAC`,
  }
}
