/**
 * The rights the edge gives each tenant (tenant-binder.ts keeps them written), computed from the
 * planned entries alone, pure: per tenant, the cluster-scoped names and the namespaced kinds its
 * entries hold, and the namespaces it may use; and the objects that say so — its ServiceAccount,
 * a ClusterRole of those names (bound cluster-wide), a ClusterRole of those kinds, and a
 * RoleBinding of the latter per usable namespace. A namespace is usable by a tenant when its
 * entries use it, it is not the agent's own, the bootstrap's (`edgeplane-system`,
 * `edgeplane-tenants`) or kube's, and no other tenant's Namespace entry claims it unless the
 * tenant's own does too (so objects of tenant A in tenant B's namespace are refused by the edge);
 * an unclaimed one stays with the tenants first bound there (usableNamespaces).
 * The rights follow the entries rather than the grant they came through: the center sends a
 * privileged kind only where the grant lists it (lib/placement/grant-rule.ts), so these are the
 * grant narrowed to what is placed (cluster-scoped ones to their names), never stale when the
 * grant changes.
 */
import { DEFAULT_AGENT_NAMESPACE } from '../edge/manifests.ts'
import { OBJECT_VERBS } from '../edge/manifests-rbac.ts'
import { TENANTS_NAMESPACE } from '../edge/manifests-tenants.ts'
import type { ObjectRef } from '../edge/protocol.ts'
import type { Planned } from './selection.ts'
import {
  TENANT_RBAC_PREFIX,
  TENANT_SPACE_ANNOTATION,
  tenantAccount,
  tenantsOf,
} from './tenant-identity.ts'

const RBAC = 'rbac.authorization.k8s.io'
/** Never a tenant's: kube's own, the bootstrap's (whatever namespace this agent was told it has). */
export const SYSTEM_NAMESPACES = new Set([
  'kube-system',
  'kube-public',
  'kube-node-lease',
  DEFAULT_AGENT_NAMESPACE,
  TENANTS_NAMESPACE,
])

type Rule = { apiGroups: string[]; resources: string[]; resourceNames?: string[]; verbs: string[] }

const isNamespace = (p: Planned) => p.entry.group === '' && p.entry.resource === 'namespaces'

/** Per tenant, what its entries hold: cluster-scoped names by group/resource, namespaced kinds. */
export function rightsOf(planned: readonly Planned[]) {
  const out = new Map<
    string,
    { cluster: Map<string, Set<string>>; kinds: Set<string>; namespaces: Set<string> }
  >()
  for (const p of planned)
    for (const t of tenantsOf(p.entry)) {
      const r = out.get(t) ?? { cluster: new Map(), kinds: new Set(), namespaces: new Set() }
      out.set(t, r)
      const gr = `${p.entry.group}/${p.entry.resource}`
      if (p.entry.namespace === '') {
        const names = r.cluster.get(gr) ?? new Set()
        names.add(p.entry.name)
        r.cluster.set(gr, names)
      } else {
        r.kinds.add(gr)
        r.namespaces.add(p.entry.namespace)
      }
    }
  return out
}

/** Per namespace name, the tenants whose Namespace entries claim it. */
function claims(planned: readonly Planned[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>()
  for (const p of planned.filter(isNamespace)) {
    const set = out.get(p.entry.name) ?? new Set()
    for (const t of tenantsOf(p.entry)) set.add(t)
    out.set(p.entry.name, set)
  }
  return out
}

const split = (gr: string) => {
  const i = gr.indexOf('/')
  return { group: gr.slice(0, i), resource: gr.slice(i + 1) }
}

function clusterRules(cluster: Map<string, Set<string>>): Rule[] {
  return [...cluster.entries()].sort().map(([gr, names]) => {
    const { group, resource } = split(gr)
    return {
      apiGroups: [group],
      resources: [resource],
      resourceNames: [...names].sort(),
      verbs: OBJECT_VERBS,
    }
  })
}

function kindRules(kinds: Set<string>): Rule[] {
  const byGroup = new Map<string, string[]>()
  for (const gr of [...kinds].sort()) {
    const { group, resource } = split(gr)
    byGroup.set(group, [...(byGroup.get(group) ?? []), resource])
  }
  return [...byGroup.entries()].map(([g, resources]) => ({
    apiGroups: [g],
    resources,
    verbs: OBJECT_VERBS,
  }))
}

const rbacRef = (resource: string, name: string, namespace = ''): ObjectRef => ({
  group: RBAC,
  version: 'v1',
  resource,
  namespace,
  name,
})

export function objectsOf(
  spaceId: string,
  r: { cluster: Map<string, Set<string>>; kinds: Set<string> }
) {
  const account = tenantAccount(spaceId)
  const name = `${TENANT_RBAC_PREFIX}${account}`
  const subjects = [{ kind: 'ServiceAccount', name: account, namespace: TENANTS_NAMESPACE }]
  const labels = { 'app.kubernetes.io/part-of': 'edgeplane', 'edgeplane.io/tenant': account }
  const role = (n: string, rules: Rule[]) => ({
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRole',
    metadata: { name: n, labels },
    rules,
  })
  return [
    {
      ref: {
        group: '',
        version: 'v1',
        resource: 'serviceaccounts',
        namespace: TENANTS_NAMESPACE,
        name: account,
      },
      obj: {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: account, namespace: TENANTS_NAMESPACE, labels },
      },
    },
    { ref: rbacRef('clusterroles', name), obj: role(name, clusterRules(r.cluster)) },
    {
      ref: rbacRef('clusterroles', `${name}:namespaced`),
      obj: role(`${name}:namespaced`, kindRules(r.kinds)),
    },
    {
      ref: rbacRef('clusterrolebindings', name),
      obj: {
        apiVersion: `${RBAC}/v1`,
        kind: 'ClusterRoleBinding',
        metadata: { name, labels },
        roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name },
        subjects,
      },
    },
  ]
}

export function namespaceBinding(spaceId: string, namespace: string) {
  const account = tenantAccount(spaceId)
  const name = `${TENANT_RBAC_PREFIX}${account}`
  return {
    ref: rbacRef('rolebindings', name, namespace),
    obj: {
      apiVersion: `${RBAC}/v1`,
      kind: 'RoleBinding',
      metadata: {
        name,
        namespace,
        labels: { 'app.kubernetes.io/part-of': 'edgeplane', 'edgeplane.io/tenant': account },
        annotations: { [TENANT_SPACE_ANNOTATION]: spaceId },
      },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: `${name}:namespaced` },
      subjects: [{ kind: 'ServiceAccount', name: account, namespace: TENANTS_NAMESPACE }],
    },
  }
}

/** Per tenant, the tenants it shares an entry with (the center merged them: one trust scope). */
function alliesOf(planned: readonly Planned[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>()
  for (const p of planned) {
    const ts = tenantsOf(p.entry)
    for (const t of ts) {
      const set = out.get(t) ?? new Set([t])
      for (const u of ts) set.add(u)
      out.set(t, set)
    }
  }
  return out
}

/**
 * Per tenant, the namespaces it may use (see the header), sorted. `held`: per namespace, the
 * tenants (space ids) the edge already binds there. A namespace no Namespace entry claims (an
 * implied one, or one the center withheld as a conflict) belongs to the tenants bound there
 * first and those they share entries with; a free one goes to the first tenant (by id) using it.
 */
export function usableNamespaces(
  planned: readonly Planned[],
  selfNamespace: string,
  held: ReadonlyMap<string, ReadonlySet<string>> = new Map()
): Map<string, string[]> {
  const claimed = claims(planned)
  const allies = alliesOf(planned)
  const holders = new Map([...held].map(([ns, ts]) => [ns, new Set(ts)]))
  const out = new Map<string, string[]>()
  for (const [t, r] of [...rightsOf(planned)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const usable = [...r.namespaces].sort().filter((ns) => {
      if (ns === selfNamespace || SYSTEM_NAMESPACES.has(ns)) return false
      const owners = claimed.get(ns)
      if (owners && owners.size > 0) return owners.has(t)
      const by = holders.get(ns) ?? new Set<string>()
      const mine = allies.get(t) ?? new Set([t])
      if (by.size > 0 && ![...by].some((u) => mine.has(u))) return false
      by.add(t)
      holders.set(ns, by)
      return true
    })
    out.set(t, usable)
  }
  return out
}
