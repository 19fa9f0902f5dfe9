/**
 * The vocabulary of the RBAC authorizer a simulated edge cluster runs (the hub in edge-cluster
 * mode, docs/architecture/edge.md "Simulated edge clusters"): who asks (a user name and groups,
 * as kube's user.Info), what they ask (kube's authorizer.Attributes: a verb on a resource of a
 * group, maybe in a namespace, maybe of one name, or a verb on a non-resource path), and the RBAC
 * objects as the authorizer reads them (rules, role references, subjects).
 */

export type UserInfo = { name: string; groups: string[] }

export type ResourceAttributes = {
  resourceRequest: true
  verb: string
  apiGroup: string
  apiVersion?: string
  resource: string
  subresource?: string
  /** Empty or absent: cluster scope (or all namespaces, for a list). */
  namespace?: string
  name?: string
}

export type NonResourceAttributes = { resourceRequest: false; verb: string; path: string }

export type Attributes = ResourceAttributes | NonResourceAttributes

export type PolicyRule = {
  verbs: string[]
  apiGroups?: string[]
  resources?: string[]
  resourceNames?: string[]
  nonResourceURLs?: string[]
}

export type Subject = { kind: string; name: string; namespace?: string }

export type RoleRef = { kind: 'Role' | 'ClusterRole'; name: string }

export type Binding = {
  name: string
  /** Absent for ClusterRoleBindings. */
  namespace?: string
  roleRef: RoleRef
  subjects: Subject[]
}

/** The RBAC objects of one cluster, by name (Roles by `namespace/name`). */
export type RbacPolicy = {
  clusterRoles: Map<string, PolicyRule[]>
  roles: Map<string, PolicyRule[]>
  clusterRoleBindings: Binding[]
  /** RoleBindings by namespace. */
  roleBindings: Map<string, Binding[]>
}

export type Decision = { allowed: boolean; reason: string }
