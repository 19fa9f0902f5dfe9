/**
 * The tenancy policy: who may make edges, where a workload space may place, which spaces may have
 * their objects merged at an edge, which privileged resources a space may send and how far its
 * upsync sets reach. Built from the root space's Inventory and PlacementGrant objects
 * (lib/apis/grants.ts) as `load.ts` reads them; pure from there, so every step, the preview and the
 * dashboard ask the same rules. docs/ARCHITECTURE.md, "Tenancy and trust", says where each line is
 * enforced.
 *
 * Two modes:
 * - **granted** (root holds at least one Inventory or PlacementGrant): only the spaces Inventories
 *   name are inventory spaces; a workload space may place onto the Locations its grants list, is
 *   in the trust scopes its grants name (a grant's `trustScope`; without one a space shares a scope
 *   with no other space, so nothing of another space is ever merged into its copies), may send the
 *   privileged resources its grants list and upsyncs from other namespaces only when a grant says
 *   so. A space no grant covers places nowhere.
 * - **single-team** (root holds neither kind, as every hub before this release): every space but
 *   the edge service provider's (`root:espw` and below) is an inventory space, every workload space
 *   may place onto every Location, all spaces are one trust scope and may send every resource.
 *   That is safe while one team (one trust domain) holds every token that writes, which is the
 *   only setup such a hub could have run safely; the first Inventory or PlacementGrant ends it for
 *   every space at once, and issuing a user token while it lasts answers with a warning.
 *
 * In both modes `root:espw` and the spaces below it are never inventory or workload spaces: what
 * an edge upsyncs into its mailbox is data, never control (docs/ARCHITECTURE.md, "Tenancy and
 * trust").
 */
import type { Inventory, PlacementGrant } from '../apis/grants.ts'
import { ESPW } from '../apis/gvr.ts'
import { scopeCovers } from '../auth/tokens.ts'
import { type Labels, matchesLabelSelector } from '../kube/label-selector.ts'

/** The scope every space is in while the hub is single-team. */
const SINGLE_TEAM_SCOPE = '*'

/** Where a workload space may place, and what it may send: the union of its grants. */
export type WorkloadGrant = {
  /** The workload space's path. */
  readonly path: string
  /** Whether a Location with `labels` in the inventory space at `inventoryPath` is granted. */
  allowsLocation(inventoryPath: string, labels: Labels | undefined): boolean
  /** The trust scopes the space is in (none: it merges with no other space). */
  readonly scopes: ReadonlySet<string>
  /** Whether a privileged resource (privilegedResource() below) may be sent. */
  allowsResource(group: string, resource: string): boolean
  /** Whether upsync sets return objects of namespaces the space's placements do not own. */
  readonly upsyncAllNamespaces: boolean
}

export type TenancyPolicy = {
  readonly singleTeam: boolean
  /** Whether SyncTargets of the space at `path` are edges. */
  isInventory(path: string): boolean
  /** The grant of the workload space at `path` (an empty one when nothing covers it). */
  grantOf(path: string): WorkloadGrant
}

/** True for `root:espw` and every space below it: mailboxes and whatever an edge planted there. */
export const isServiceProviderPath = (path: string): boolean =>
  path === ESPW || path.startsWith(`${ESPW}:`)

const RBAC_GROUP = 'rbac.authorization.k8s.io'
const ADMISSION_GROUP = 'admissionregistration.k8s.io'

/**
 * Whether sending objects of a resource needs a grant: every cluster-scoped resource but
 * Namespaces, and RBAC and admission resources of any scope (a RoleBinding to cluster-admin, a
 * webhook on every resource).
 */
export function privilegedResource(group: string, resource: string, namespaced: boolean): boolean {
  if (group === RBAC_GROUP || group === ADMISSION_GROUP) return true
  if (namespaced) return false
  return !(group === '' && resource === 'namespaces')
}

/** Two workload spaces' objects may be merged at an edge: the same space, or a shared scope. */
export function sameTrustScope(a: WorkloadGrant, b: WorkloadGrant): boolean {
  if (a.path === b.path) return true
  for (const s of a.scopes) if (b.scopes.has(s)) return true
  return false
}

const singleTeamGrant = (path: string): WorkloadGrant => {
  const own = isServiceProviderPath(path)
  return {
    path,
    allowsLocation: (inventoryPath) => !own && !isServiceProviderPath(inventoryPath),
    scopes: new Set(own ? [] : [SINGLE_TEAM_SCOPE]),
    allowsResource: () => !own,
    upsyncAllNamespaces: !own,
  }
}

const resourceMatches = (want: { group: string; resource: string }, group: string, r: string) =>
  (want.group === '*' || want.group === group) && (want.resource === '*' || want.resource === r)

function grantedFrom(path: string, grants: readonly PlacementGrant[], inv: Set<string>) {
  const covering = isServiceProviderPath(path)
    ? []
    : grants.filter((g) => g.spec.workloadSpaces.some((s) => scopeCovers(s, path)))
  const locations = covering.flatMap((g) => g.spec.locations ?? [])
  const resources = covering.flatMap((g) => g.spec.resources ?? [])
  const grant: WorkloadGrant = {
    path,
    allowsLocation: (inventoryPath, labels) =>
      inv.has(inventoryPath) &&
      locations.some(
        (l) => l.inventory === inventoryPath && matchesLabelSelector(labels, l.selector ?? {})
      ),
    scopes: new Set(covering.flatMap((g) => (g.spec.trustScope ? [g.spec.trustScope] : []))),
    allowsResource: (group, resource) => resources.some((r) => resourceMatches(r, group, resource)),
    upsyncAllNamespaces: covering.some((g) => g.spec.upsyncAllNamespaces === true),
  }
  return grant
}

/** The policy of the given objects (those being deleted are left out by the loader). */
export function tenancyPolicy(
  inventories: readonly Inventory[],
  grants: readonly PlacementGrant[]
): TenancyPolicy {
  if (inventories.length === 0 && grants.length === 0)
    return {
      singleTeam: true,
      isInventory: (path) => !isServiceProviderPath(path),
      grantOf: singleTeamGrant,
    }
  const inv = new Set(inventories.map((i) => i.spec.space).filter((p) => !isServiceProviderPath(p)))
  const memo = new Map<string, WorkloadGrant>()
  return {
    singleTeam: false,
    isInventory: (path) => inv.has(path),
    grantOf(path) {
      let g = memo.get(path)
      if (!g) {
        g = grantedFrom(path, grants, inv)
        memo.set(path, g)
      }
      return g
    },
  }
}
