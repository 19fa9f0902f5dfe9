/**
 * The keys an administrator's tenancy object wakes: an Inventory or PlacementGrant
 * (`tenancy.edgeplane.io`, root only, lib/apis/grants.ts) changes what every step decides at once —
 * which SyncTargets are edges (mailbox step), which Locations each workload space may place onto
 * (where step), which spaces share a trust scope and which privileged resources travel (translate
 * step), which namespaces an upsync returns (summarize step). Such writes are rare, admin-only and
 * fleet-wide in effect, so one wakes every key of those steps the relay can name: every
 * EdgePlacement's where and summarize key, the mailbox key of every SyncTarget (a cross-space list
 * read for the event, as the SyncTargets of a new inventory space have no mailbox to name yet) and
 * the translate key of every mailbox a slice reaches. Only a new uid or generation counts (a status
 * or metadata-only write changes no policy); the resync still heals anything the relay missed.
 */
import { GRANT_GROUP, INVENTORIES_RESOURCE, PLACEMENT_GRANTS_RESOURCE } from '../apis/grants.ts'
import { CLUSTER_ANNOTATION, type KubeObject } from '../kube/types.ts'
import { mailboxOf, whereKeyOf } from '../reconcile/keys.ts'
import { specMoved } from './event-memory.ts'
import type { SliceIndex } from './slice-index.ts'

type Key = { step: string; key: string }

/** What tenancyKeys reads; the step names come from the caller (event-keys.ts owns them). */
export type TenancyKeysDeps = {
  steps: { mailbox: string; where: string; translate: string; summarize?: string }
  listEdgePlacements(): Promise<KubeObject[]>
  /** Every SyncTarget of every space; without it, no mailbox key is woken (the resync's). */
  listSyncTargets?: () => Promise<KubeObject[]>
  index: SliceIndex
  /** Whether a space is root:espw or below (its placements are never keys). */
  isProvider(space: string | undefined): boolean
  /** `<uid>/<generation>` last seen per tenancy object; without it, every event wakes. */
  specs?: Map<string, string>
}

const TENANCY_RESOURCES: ReadonlySet<string> = new Set([
  INVENTORIES_RESOURCE,
  PLACEMENT_GRANTS_RESOURCE,
])

/** True for the tenancy kinds whose objects change placement policy. */
export function isTenancyPolicy(group: string, resource: string): boolean {
  return group === GRANT_GROUP && TENANCY_RESOURCES.has(resource)
}

const sorted = (step: string, keys: Iterable<string | undefined>): Key[] =>
  [...new Set([...keys].filter((k): k is string => !!k))].sort().map((key) => ({ step, key }))

/** The keys a tenancy object's event wakes (none when its spec did not move). */
export async function tenancyKeys(
  resource: string,
  type: string,
  obj: KubeObject,
  deps: TenancyKeysDeps
): Promise<Key[]> {
  const memo = `${GRANT_GROUP}/${resource}/${obj.metadata.name ?? ''}`
  if (!specMoved(deps.specs, memo, type, obj)) return []
  const [placements, syncTargets] = await Promise.all([
    deps.listEdgePlacements(),
    deps.listSyncTargets ? deps.listSyncTargets() : Promise.resolve([]),
  ])
  const outside = (o: KubeObject) => !deps.isProvider(o.metadata?.annotations?.[CLUSTER_ANNOTATION])
  const whereKeys = placements.filter(outside).map(whereKeyOf)
  const mailboxes = deps.index.spaces().flatMap((s) => deps.index.ofSpace(s))
  const { steps } = deps
  return [
    ...sorted(steps.mailbox, syncTargets.filter(outside).map(mailboxOf)),
    ...sorted(steps.where, whereKeys),
    ...sorted(steps.translate, mailboxes),
    ...(steps.summarize ? sorted(steps.summarize, whereKeys) : []),
  ]
}
