/**
 * The `tenancy.edgeplane.io/v1alpha1` kinds an administrator draws tenant lines with, served in
 * the root space only (cluster-scoped there, every verb admin only, as Tokens):
 *
 * - `Inventory` makes one space an inventory space: only SyncTargets of inventory spaces become
 *   edges (mailboxes); a SyncTarget or Location anywhere else is inert data.
 * - `PlacementGrant` grants workload spaces (paths or `:*` subtrees, as a Token's spaces) the
 *   Locations they may place onto (an inventory space and a label selector over its Locations, in
 *   the spirit of OCM's ManagedClusterSetBinding), the trust scope they merge within, the
 *   cluster-scoped, RBAC and admission resources they may send (an allow list, empty by default,
 *   as Argo CD's AppProject), and whether their upsync sets reach namespaces they do not own.
 * - `SpaceQuota` bounds how many objects each of some spaces (paths or `:*` subtrees) may hold,
 *   in all and per resource; creates past it are kube's 403 `exceeded quota` (lib/quota/).
 *
 * While root holds neither kind the hub is single-team (lib/tenancy/policy.ts says what that
 * allows and why it is safe). The rules live in lib/tenancy/; these schemas give the kinds their
 * OpenAPI v3 schemas (with descriptions for `kubectl explain`) and the hub's field checks.
 */
import { z } from 'zod'
import { builtinResource, type ResourceInfo } from '../kube/resource-info.ts'
import { kindObject } from './kind-object.ts'
import { LabelSelectorSchema } from './meta.ts'

export const GRANT_GROUP = 'tenancy.edgeplane.io'
export const GRANT_VERSION = 'v1alpha1'
export const GRANT_API_VERSION = `${GRANT_GROUP}/${GRANT_VERSION}`
export const INVENTORIES_RESOURCE = 'inventories'
export const PLACEMENT_GRANTS_RESOURCE = 'placementgrants'

export const INVENTORY_INFO: ResourceInfo = builtinResource({
  group: GRANT_GROUP,
  versions: [GRANT_VERSION],
  resource: INVENTORIES_RESOURCE,
  singular: 'inventory',
  kind: 'Inventory',
  namespaced: false,
  shortNames: ['inv'],
})

export const PLACEMENT_GRANT_INFO: ResourceInfo = builtinResource({
  group: GRANT_GROUP,
  versions: [GRANT_VERSION],
  resource: PLACEMENT_GRANTS_RESOURCE,
  kind: 'PlacementGrant',
  namespaced: false,
  shortNames: ['pgrant'],
})

export const SPACE_QUOTAS_RESOURCE = 'spacequotas'

export const SPACE_QUOTA_INFO: ResourceInfo = builtinResource({
  group: GRANT_GROUP,
  versions: [GRANT_VERSION],
  resource: SPACE_QUOTAS_RESOURCE,
  kind: 'SpaceQuota',
  namespaced: false,
  shortNames: ['squota'],
})

export const GRANT_RESOURCES: readonly ResourceInfo[] = [
  INVENTORY_INFO,
  PLACEMENT_GRANT_INFO,
  SPACE_QUOTA_INFO,
]

/** True for the tenancy.edgeplane.io kinds (admin only, root only). */
export function isGrantResource(info: Pick<ResourceInfo, 'group' | 'source'>): boolean {
  return info.source === 'builtin' && info.group === GRANT_GROUP
}

const spacePath = () => z.string().min(1).max(1024)

export const InventorySpecSchema = z
  .object({
    space: spacePath().describe(
      'The path of the space whose SyncTargets are edges (root:imw-1); an exact path, no subtree.'
    ),
  })
  .describe('Which space is an inventory space.')

export const InventorySchema = kindObject(
  'Inventory',
  'Makes one space an inventory space: only SyncTargets there become edges, and only its ' +
    'Locations can be placed onto. In root, admin only.',
  { spec: InventorySpecSchema }
)
export type Inventory = z.infer<typeof InventorySchema>

export const GrantedLocationsSchema = z
  .object({
    inventory: spacePath().describe(
      'The path of an inventory space (an Inventory names it) whose Locations are granted.'
    ),
    selector: LabelSelectorSchema.optional().describe(
      'Which of its Locations, by their labels; absent or empty: every Location of the space.'
    ),
  })
  .describe('Locations of one inventory space.')

export const GrantedResourceSchema = z
  .object({
    group: z.string().max(253).describe('API group; "" is the core group, "*" every group.'),
    resource: z
      .string()
      .min(1)
      .max(253)
      .describe('Lowercase plural resource (clusterroles); "*" every resource of the group.'),
  })
  .describe('A resource the spaces may send to their edges beyond namespaced workload kinds.')

export const PlacementGrantSpecSchema = z
  .object({
    workloadSpaces: z
      .array(spacePath())
      .min(1)
      .max(64)
      .describe('Workload space paths (root:team-a) or subtrees (root:team-a:*) the grant covers.'),
    locations: z
      .array(GrantedLocationsSchema)
      .max(64)
      .optional()
      .describe('The Locations those spaces may place onto; none unless listed.'),
    trustScope: z
      .string()
      .min(1)
      .max(63)
      .optional()
      .describe(
        'Spaces of grants naming the same trust scope may have objects of one identity merged ' +
          'at an edge; others conflict. Default: none (each space merges with no other).'
      ),
    resources: z
      .array(GrantedResourceSchema)
      .max(128)
      .optional()
      .describe(
        'Cluster-scoped resources (Namespaces aside) and RBAC and admission resources of any ' +
          'scope the spaces may send; none unless listed.'
      ),
    upsyncAllNamespaces: z
      .boolean()
      .optional()
      .describe(
        "When true, the spaces' upsync sets return objects of any namespace at the edge; by " +
          'default only of the namespaces their own placements send there.'
      ),
  })
  .describe('What some workload spaces may place, and where.')

export const PlacementGrantSchema = kindObject(
  'PlacementGrant',
  'Lets some workload spaces place onto some Locations, merge objects within a trust scope, ' +
    'send chosen privileged resources and upsync from any namespace. In root, admin only; ' +
    'without any grant or Inventory the hub is single-team and every space places anywhere.',
  { spec: PlacementGrantSpecSchema }
)
export type PlacementGrant = z.infer<typeof PlacementGrantSchema>

const count = () => z.number().int().min(0).max(100_000_000)

export const QuotaResourceSchema = z
  .object({
    group: z.string().max(253).describe('API group; "" is the core group.'),
    resource: z.string().min(1).max(253).describe('Lowercase plural resource (configmaps).'),
    max: count().describe('How many objects of the resource each space may hold.'),
  })
  .describe('A bound on the objects of one resource in each space.')

export const SpaceQuotaSpecSchema = z
  .object({
    spaces: z
      .array(spacePath())
      .min(1)
      .max(64)
      .describe(
        'Space paths (root:team-a) or subtrees (root:team-a:*) each held to the bounds; ' +
          'root:espw and below (mailboxes) never are.'
      ),
    maxObjects: count()
      .optional()
      .describe('How many objects, of every resource together, each space may hold.'),
    resources: z
      .array(QuotaResourceSchema)
      .max(128)
      .optional()
      .describe('Bounds per resource, on top of maxObjects.'),
  })
  .describe('How many objects each of some spaces may hold; every create past it is refused.')

export const SpaceQuotaSchema = kindObject(
  'SpaceQuota',
  'Bounds how many objects each of some spaces may hold, in all and per resource; a create ' +
    "past a bound is refused with kube's 403 exceeded quota. In root, admin only.",
  { spec: SpaceQuotaSpecSchema }
)
export type SpaceQuota = z.infer<typeof SpaceQuotaSchema>

export const GRANT_SCHEMAS = {
  Inventory: InventorySchema,
  PlacementGrant: PlacementGrantSchema,
  SpaceQuota: SpaceQuotaSchema,
}
