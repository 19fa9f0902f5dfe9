/**
 * What the relay watches. A WatchTarget is one resource at one version, either across all spaces
 * (`space` absent: the `/clusters/*` view) or in one space (a CRD's custom resources: the cross-space
 * view serves root's registry only, so a CRD's group is a 404 there). The core
 * targets feed the mailbox, where and rollout steps and the translate index (SyncTargets,
 * Locations, EdgePlacements, Rollouts, SinglePlacementSlices, Workspaces, CRDs) and carry the administrator's tenancy
 * policy (Inventories, PlacementGrants: a change wakes every step, tenancy-keys.ts); every other resource a placement can
 * select is found through the hub's discovery at start and matters only to the translate step.
 * Which resources are skipped is decided in ONE place, `isWatchedResource`, from the object
 * categories of lib/apis/categories.ts: 'not-for-edge' resources (events, leases, endpoints, ...)
 * never wake a translation, except the edge and tenancy kinds the relay needs itself.
 */
import { categoryOf } from '../apis/categories.ts'
import {
  GRANT_GROUP,
  GRANT_VERSION,
  INVENTORIES_RESOURCE,
  PLACEMENT_GRANTS_RESOURCE,
} from '../apis/grants.ts'

export type WatchTarget = { group: string; version: string; resource: string; space?: string }

/** A resource as discovery lists it (preferred version first within its group). */
export type DiscoveredResource = {
  group: string
  version: string
  resource: string
  verbs: string[]
}

const edge = (resource: string): WatchTarget => ({
  group: 'edge.kcp.io',
  version: 'v1alpha1',
  resource,
})

export const WORKSPACES: WatchTarget = {
  group: 'tenancy.kcp.io',
  version: 'v1alpha1',
  resource: 'workspaces',
}
export const CRDS: WatchTarget = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  resource: 'customresourcedefinitions',
}
export const SLICES: WatchTarget = edge('singleplacementslices')
export const ROLLOUTS: WatchTarget = edge('rollouts')
const tenancy = (resource: string): WatchTarget => ({
  group: GRANT_GROUP,
  version: GRANT_VERSION,
  resource,
})

/** Always watched, whatever discovery says. */
export const CORE_TARGETS: readonly WatchTarget[] = [
  edge('synctargets'),
  edge('locations'),
  edge('edgeplacements'),
  ROLLOUTS,
  SLICES,
  WORKSPACES,
  CRDS,
  tenancy(INVENTORIES_RESOURCE),
  tenancy(PLACEMENT_GRANTS_RESOURCE),
]

const gr = (group: string, resource: string) => `${group}/${resource}`

/**
 * Listed afresh at every start instead of resuming from their cursor: the relay keeps in memory
 * what they describe (the slice index, the Rollouts per space, the CRDs per space, the Locations'
 * labels by which a Rollout's promotion wakes only its wave's mailboxes: rollout-keys.ts), and
 * relisting Workspaces wakes every mailbox once, which covers the destinations removed while the
 * relay was not running.
 */
const LIST_ON_START = new Set([
  gr('edge.kcp.io', 'locations'),
  gr(SLICES.group, SLICES.resource),
  gr(ROLLOUTS.group, ROLLOUTS.resource),
  gr(WORKSPACES.group, WORKSPACES.resource),
  gr(CRDS.group, CRDS.resource),
])

/**
 * 'not-for-edge' kinds watched anyway: the core ones, Customizers (translation input) and
 * Summarizers (summarize input; their StatusSummaries, the step's output, are not watched).
 */
const WATCHED_ANYWAY = new Set([
  ...CORE_TARGETS.map((t) => gr(t.group, t.resource)),
  gr('edge.kcp.io', 'customizers'),
  gr('edge.kcp.io', 'summarizers'),
])

/** Whether objects of this resource can matter to a step (the one skip list of the relay). */
export function isWatchedResource(group: string, resource: string): boolean {
  return WATCHED_ANYWAY.has(gr(group, resource)) || categoryOf(group, resource) !== 'not-for-edge'
}

export function isCoreTarget(t: WatchTarget): boolean {
  return (
    t.space === undefined &&
    CORE_TARGETS.some((c) => c.group === t.group && c.resource === t.resource)
  )
}

export function listsOnStart(t: WatchTarget): boolean {
  return t.space === undefined && LIST_ON_START.has(gr(t.group, t.resource))
}

/** The cursor key of a target: `<space or *>/<group or core>/<resource>` (version-free). */
export function targetId(t: WatchTarget): string {
  return `${t.space ?? '*'}/${t.group || 'core'}/${t.resource}`
}

/** The collection path of a target on the hub. */
export function targetPath(t: WatchTarget): string {
  const api = t.group ? `apis/${t.group}` : 'api'
  return `/clusters/${t.space ?? '*'}/${api}/${t.version}/${t.resource}`
}

/**
 * The cross-space targets for what discovery lists: each listable and watchable resource once, at
 * the first version discovery gives it (the preferred one), minus the skipped kinds; the core
 * targets are always included.
 */
export function selectWatchTargets(discovered: readonly DiscoveredResource[]): WatchTarget[] {
  const out = new Map<string, WatchTarget>()
  for (const c of CORE_TARGETS) out.set(gr(c.group, c.resource), c)
  for (const r of discovered) {
    const k = gr(r.group, r.resource)
    if (out.has(k) || r.resource.includes('/')) continue
    if (!r.verbs.includes('list') || !r.verbs.includes('watch')) continue
    if (!isWatchedResource(r.group, r.resource)) continue
    out.set(k, { group: r.group, version: r.version, resource: r.resource })
  }
  return [...out.values()]
}
