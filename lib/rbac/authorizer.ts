/**
 * kube's RBAC authorizer over one cluster's RBAC objects (rbac.go, Authorize and VisitRulesFor):
 * a request is allowed when a rule reached by the user allows it. Rules are reached through every
 * ClusterRoleBinding naming the user (its ClusterRole's rules, cluster-wide) and, for a request in
 * a namespace, every RoleBinding of that namespace naming the user (its Role's, or its
 * ClusterRole's rules, in that namespace only). A subject names the user (User), one of its groups
 * (Group), or a ServiceAccount whose user name is the user's (a RoleBinding's ServiceAccount
 * subject without a namespace means the binding's). Members of `system:masters` are allowed
 * everything, as kube's privileged-group authorizer does before RBAC. There is no deny: what no
 * rule allows is refused. A binding to a role that does not exist grants nothing.
 */
import { ruleAllows } from './rule-match.ts'
import { MASTERS, parseServiceAccountUser } from './service-accounts.ts'
import type {
  Attributes,
  Binding,
  Decision,
  PolicyRule,
  RbacPolicy,
  Subject,
  UserInfo,
} from './types.ts'

export function appliesTo(user: UserInfo, subject: Subject, bindingNamespace?: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.name === subject.name
    case 'Group':
      return user.groups.includes(subject.name)
    case 'ServiceAccount': {
      const namespace = subject.namespace || bindingNamespace
      if (!namespace) return false
      const sa = parseServiceAccountUser(user.name)
      return sa?.namespace === namespace && sa.name === subject.name
    }
    default:
      return false
  }
}

function roleRules(policy: RbacPolicy, b: Binding): PolicyRule[] {
  if (b.roleRef.kind === 'ClusterRole') return policy.clusterRoles.get(b.roleRef.name) ?? []
  if (!b.namespace) return []
  return policy.roles.get(`${b.namespace}/${b.roleRef.name}`) ?? []
}

/** Each binding reaching `user` for a request in `namespace` ('' = cluster scope), with its rules. */
export function* bindingsFor(
  policy: RbacPolicy,
  user: UserInfo,
  namespace: string
): Generator<{ binding: Binding; rules: PolicyRule[] }> {
  for (const b of policy.clusterRoleBindings)
    if (b.subjects.some((s) => appliesTo(user, s)))
      yield { binding: b, rules: roleRules(policy, b) }
  if (!namespace) return
  for (const b of policy.roleBindings.get(namespace) ?? [])
    if (b.subjects.some((s) => appliesTo(user, s, namespace)))
      yield { binding: b, rules: roleRules(policy, b) }
}

/** Every rule `user` holds in `namespace` ('' = cluster-wide rules only). */
export function rulesFor(policy: RbacPolicy, user: UserInfo, namespace: string): PolicyRule[] {
  return [...bindingsFor(policy, user, namespace)].flatMap((b) => b.rules)
}

const namespaceOf = (a: Attributes) => (a.resourceRequest ? (a.namespace ?? '') : '')

function describeBinding(b: Binding): string {
  const kind = b.namespace
    ? `RoleBinding "${b.namespace}/${b.name}"`
    : `ClusterRoleBinding "${b.name}"`
  return `${kind} of ${b.roleRef.kind} "${b.roleRef.name}"`
}

export function authorize(policy: RbacPolicy, user: UserInfo, a: Attributes): Decision {
  if (user.groups.includes(MASTERS)) return { allowed: true, reason: `member of ${MASTERS}` }
  for (const { binding, rules } of bindingsFor(policy, user, namespaceOf(a)))
    if (rules.some((r) => ruleAllows(r, a)))
      return { allowed: true, reason: `RBAC: allowed by ${describeBinding(binding)}` }
  return { allowed: false, reason: '' }
}
