/**
 * What is built into every edge cluster, as configured at deployment: the namespaces every cluster
 * has from the start (`EDGE_BUILTIN_NAMESPACES`, comma-separated; kube's four by default) and the
 * API groups every cluster serves (the Kubernetes groups of the hub's own built-in resources, not
 * kcp's or the edge API's). Propagation never manages their definitions: a placed Namespace that is
 * built in, or a CRD defining a built-in group, is skipped, because the edge cluster owns it and
 * deleting the copy would delete something the cluster cannot live without. A workload may still
 * put objects INTO a built-in namespace.
 */
import { BUILTIN_RESOURCES } from '../kube/builtin-resources.ts'
import { dnsLabelErrors } from '../kube/names.ts'
import type { KubeObject } from '../kube/types.ts'

export type Builtins = { namespaces: ReadonlySet<string>; groups: ReadonlySet<string> }

export const DEFAULT_BUILTIN_NAMESPACES: readonly string[] = [
  'default',
  'kube-system',
  'kube-public',
  'kube-node-lease',
]

/** kcp's groups (`*.kcp.io`, including the edge API): the hub has them, edge clusters do not. */
const isKcpGroup = (group: string) => group === 'kcp.io' || group.endsWith('.kcp.io')

/** Every API group of the hub's built-in Kubernetes resources ('' included), kcp's excluded. */
export const BUILTIN_KUBE_GROUPS: ReadonlySet<string> = new Set(
  BUILTIN_RESOURCES.map((r) => r.group).filter((g) => !isKcpGroup(g))
)

export function builtinsFrom(namespaces?: readonly string[]): Builtins {
  return {
    namespaces: new Set(namespaces ?? DEFAULT_BUILTIN_NAMESPACES),
    groups: BUILTIN_KUBE_GROUPS,
  }
}

/**
 * The namespaces of `EDGE_BUILTIN_NAMESPACES`: undefined gives the default four; otherwise the
 * comma-separated items, trimmed, empty ones dropped, duplicates removed (so "" means none). Each
 * must be a DNS-1123 label (a namespace name); otherwise this throws naming the item and why.
 */
export function parseBuiltinNamespaces(s?: string): string[] {
  if (s === undefined) return [...DEFAULT_BUILTIN_NAMESPACES]
  const out: string[] = []
  for (const item of s.split(',')) {
    const name = item.trim()
    if (name === '') continue
    const errors = dnsLabelErrors(name)
    if (errors.length > 0) {
      throw new Error(
        `EDGE_BUILTIN_NAMESPACES: ${JSON.stringify(name)} is not a valid namespace name: ${errors.join('; ')}`
      )
    }
    if (!out.includes(name)) out.push(name)
  }
  return out
}

function crdGroup(obj: KubeObject): string | undefined {
  const spec = obj.spec
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) return undefined
  const group = (spec as Record<string, unknown>).group
  return typeof group === 'string' ? group : undefined
}

/** A built-in Namespace, or a CRD whose `spec.group` is a built-in group. */
export function isBuiltinDefinition(
  group: string,
  resource: string,
  obj: KubeObject,
  b: Builtins
): boolean {
  if (group === '' && resource === 'namespaces') return b.namespaces.has(obj.metadata?.name ?? '')
  if (group === 'apiextensions.k8s.io' && resource === 'customresourcedefinitions') {
    const g = crdGroup(obj)
    return g !== undefined && b.groups.has(g)
  }
  return false
}
