/**
 * The RBAC objects of a cluster as the authorizer reads them, decoded from stored Roles,
 * ClusterRoles, RoleBindings and ClusterRoleBindings (zod: the store holds what clients wrote, and
 * validation keeps it well formed, but an object that does not decode grants nothing rather than
 * failing every request). A ClusterRole's rules are its own `rules` (the aggregation controller,
 * which would fill an aggregated role's rules, does not run on a simulated edge).
 */
import { z } from 'zod'
import type { KubeObject } from '../kube/types.ts'
import type { Binding, PolicyRule, RbacPolicy } from './types.ts'

export const RBAC_GROUP = 'rbac.authorization.k8s.io'

const strings = z.array(z.string()).nullish()

export const PolicyRuleSchema = z.object({
  verbs: z.array(z.string()),
  apiGroups: strings,
  resources: strings,
  resourceNames: strings,
  nonResourceURLs: strings,
})

const RoleSchema = z.object({
  metadata: z.object({ name: z.string(), namespace: z.string().optional() }),
  rules: z.array(PolicyRuleSchema).nullish(),
})

const BindingSchema = z.object({
  metadata: z.object({ name: z.string(), namespace: z.string().optional() }),
  roleRef: z.object({ kind: z.enum(['Role', 'ClusterRole']), name: z.string() }),
  subjects: z
    .array(z.object({ kind: z.string(), name: z.string(), namespace: z.string().optional() }))
    .nullish(),
})

/** A decoded rule with its absent lists left out. */
export function toRule(r: z.infer<typeof PolicyRuleSchema>): PolicyRule {
  const out: PolicyRule = { verbs: r.verbs }
  if (r.apiGroups) out.apiGroups = r.apiGroups
  if (r.resources) out.resources = r.resources
  if (r.resourceNames) out.resourceNames = r.resourceNames
  if (r.nonResourceURLs) out.nonResourceURLs = r.nonResourceURLs
  return out
}

/** The rules of a Role or ClusterRole object; undefined when it does not decode. */
export function rulesOf(obj: unknown): PolicyRule[] | undefined {
  const role = RoleSchema.safeParse(obj)
  return role.success ? (role.data.rules ?? []).map(toRule) : undefined
}

/** A RoleBinding or ClusterRoleBinding object as a Binding; undefined when it does not decode. */
export function bindingOf(obj: unknown): Binding | undefined {
  const b = BindingSchema.safeParse(obj)
  if (!b.success) return undefined
  const { metadata, roleRef, subjects } = b.data
  return {
    name: metadata.name,
    ...(metadata.namespace ? { namespace: metadata.namespace } : {}),
    roleRef,
    subjects: (subjects ?? []).map((s) => ({
      kind: s.kind,
      name: s.name,
      ...(s.namespace ? { namespace: s.namespace } : {}),
    })),
  }
}

export type RbacObjects = {
  clusterRoles: KubeObject[]
  roles: KubeObject[]
  clusterRoleBindings: KubeObject[]
  roleBindings: KubeObject[]
}

export function policyOf(o: RbacObjects): RbacPolicy {
  const policy: RbacPolicy = {
    clusterRoles: new Map(),
    roles: new Map(),
    clusterRoleBindings: [],
    roleBindings: new Map(),
  }
  for (const obj of o.clusterRoles) {
    const rules = rulesOf(obj)
    if (rules) policy.clusterRoles.set(obj.metadata.name ?? '', rules)
  }
  for (const obj of o.roles) {
    const rules = rulesOf(obj)
    if (rules) policy.roles.set(`${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`, rules)
  }
  for (const obj of o.clusterRoleBindings) {
    const b = bindingOf(obj)
    if (!b) continue
    const { namespace: _cluster, ...binding } = b
    policy.clusterRoleBindings.push(binding)
  }
  for (const obj of o.roleBindings) {
    const b = bindingOf(obj)
    if (!b?.namespace) continue
    const list = policy.roleBindings.get(b.namespace) ?? []
    list.push(b)
    policy.roleBindings.set(b.namespace, list)
  }
  return policy
}
