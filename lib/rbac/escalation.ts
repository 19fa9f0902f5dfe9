/**
 * kube's RBAC escalation prevention (pkg/registry/rbac: the Role, ClusterRole and binding
 * storages): writing a Role or ClusterRole requires holding every permission it grants (a Role's
 * in its namespace, a ClusterRole's cluster-wide), unless the writer may `escalate` that role;
 * writing a RoleBinding or ClusterRoleBinding requires holding every permission of the role it
 * refers to (in the binding's namespace, or cluster-wide), unless the writer may `bind` that role.
 * Members of `system:masters` may do either. A binding to a role that does not exist is refused
 * the same way (its permissions cannot be shown to be held). Refusals are kube's 403, naming the
 * permissions not held.
 */
import { forbidden } from '../errors.ts'
import type { KubeObject } from '../kube/types.ts'
import { authorize, rulesFor } from './authorizer.ts'
import { compactRule, goQuotedList, uncovered } from './covers.ts'
import { bindingOf, RBAC_GROUP, rulesOf } from './rbac-objects.ts'
import { MASTERS } from './service-accounts.ts'
import type { PolicyRule, RbacPolicy, UserInfo } from './types.ts'

const ROLE_RESOURCES = new Set(['roles', 'clusterroles'])
const BINDING_RESOURCES = new Set(['rolebindings', 'clusterrolebindings'])

/** Whether `resource` of the RBAC group is one whose writes the escalation check guards. */
export const isEscalationGuarded = (group: string, resource: string) =>
  group === RBAC_GROUP && (ROLE_RESOURCES.has(resource) || BINDING_RESOURCES.has(resource))

type Write = { resource: string; obj: KubeObject }

function refuse(w: Write, message: string) {
  const name = w.obj.metadata.name ?? ''
  return forbidden(`${w.resource}.${RBAC_GROUP} "${name}" is forbidden: ${message}`, {
    group: RBAC_GROUP,
    kind: w.resource,
    name,
  })
}

/** Who writes, against which policy, in which namespace ('' = cluster-wide). */
type Writer = { policy: RbacPolicy; user: UserInfo; namespace: string }

function confirmHeld(who: Writer, rules: readonly PolicyRule[], w: Write) {
  const missing = uncovered(rulesFor(who.policy, who.user, who.namespace), rules)
  if (missing.length === 0) return
  const lines = [...new Set(missing.map(compactRule))].sort()
  throw refuse(
    w,
    `user "${who.user.name}" (groups=${goQuotedList(who.user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`
  )
}

function may(who: Writer, verb: string, ref: { resource: string; name: string }) {
  return authorize(who.policy, who.user, {
    resourceRequest: true,
    verb,
    apiGroup: RBAC_GROUP,
    resource: ref.resource,
    ...(who.namespace ? { namespace: who.namespace } : {}),
    name: ref.name,
  }).allowed
}

/** Throws 403 when `user` may not store `w.obj` (a role or binding) under escalation prevention. */
export function checkEscalation(policy: RbacPolicy, user: UserInfo, w: Write): void {
  if (user.groups.includes(MASTERS)) return
  const ns = w.obj.metadata.namespace ?? ''
  const who: Writer = { policy, user, namespace: ns }
  if (ROLE_RESOURCES.has(w.resource)) {
    if (may(who, 'escalate', { resource: w.resource, name: w.obj.metadata.name ?? '' })) return
    confirmHeld(who, rulesOf(w.obj) ?? [], w)
    return
  }
  if (!BINDING_RESOURCES.has(w.resource)) return
  const binding = bindingOf(w.obj)
  if (!binding) return // validation refuses it
  const ref = binding.roleRef
  const refResource = ref.kind === 'Role' ? 'roles' : 'clusterroles'
  if (may(who, 'bind', { resource: refResource, name: ref.name })) return
  const rules =
    ref.kind === 'Role' ? policy.roles.get(`${ns}/${ref.name}`) : policy.clusterRoles.get(ref.name)
  if (!rules) throw refuse(w, `${ref.kind.toLowerCase()} "${ref.name}" not found`)
  confirmHeld(who, rules, w)
}
