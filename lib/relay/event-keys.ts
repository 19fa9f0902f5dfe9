/**
 * Maps a hub watch event to the reconcile-step keys it should wake, for the relay that runs outside
 * the Worker. SyncTargets wake their mailbox and every where-key; Workspaces in the edge service
 * provider space wake the mailbox they name; Locations wake every where-key (a relabel can change
 * any placement's selection); EdgePlacements and SinglePlacementSlices wake their own where-key.
 * The key formats come from lib/reconcile/keys.ts, the same module the steps use.
 */
import { CLUSTER_ANNOTATION, type KubeObject } from '../kube/types.ts'
import { isMailboxName, mailboxOf, whereKeyOf } from '../reconcile/keys.ts'

export { isMailboxName, mailboxOf, whereKeyOf }

export const MAILBOX_STEP = 'mailbox'
export const WHERE_STEP = 'where'

/** The resources the relay watches, by lowercase plural name. */
export const RELAY_RESOURCES = [
  'synctargets',
  'workspaces',
  'locations',
  'edgeplacements',
  'singleplacementslices',
] as const
export type RelayResource = (typeof RELAY_RESOURCES)[number]

export type WatchEvent = { type: string; object: KubeObject }
export type StepKey = { step: string; key: string }

export type EventKeysDeps = {
  /** Logical-cluster id of the edge service provider space (root:espw). */
  espwSpaceId: string
  /** Every EdgePlacement in every space, each with its kcp.io/cluster annotation. */
  listEdgePlacements(): Promise<KubeObject[]>
}

async function allWhereKeys(deps: EventKeysDeps): Promise<StepKey[]> {
  const keys = (await deps.listEdgePlacements()).map(whereKeyOf)
  return [...new Set(keys.filter((k): k is string => !!k))]
    .sort()
    .map((key) => ({ step: WHERE_STEP, key }))
}

function isRelayResource(resource: string): resource is RelayResource {
  return (RELAY_RESOURCES as readonly string[]).includes(resource)
}

/**
 * The keys an event wakes. Events that carry no object change (BOOKMARK, ERROR), unknown resources
 * and objects missing the fields a key needs yield no keys.
 */
export async function keysForEvent(
  resource: string,
  event: WatchEvent,
  deps: EventKeysDeps
): Promise<StepKey[]> {
  if (!['ADDED', 'MODIFIED', 'DELETED'].includes(event.type)) return []
  if (!isRelayResource(resource) || !event.object?.metadata) return []
  const obj = event.object
  switch (resource) {
    case 'synctargets': {
      const mailbox = mailboxOf(obj)
      const own = mailbox ? [{ step: MAILBOX_STEP, key: mailbox }] : []
      return [...own, ...(await allWhereKeys(deps))]
    }
    case 'workspaces': {
      const name = obj.metadata.name
      if (
        obj.metadata?.annotations?.[CLUSTER_ANNOTATION] !== deps.espwSpaceId ||
        !name ||
        !isMailboxName(name)
      )
        return []
      return [{ step: MAILBOX_STEP, key: name }]
    }
    case 'locations':
      return allWhereKeys(deps)
    case 'edgeplacements':
    case 'singleplacementslices': {
      const key = whereKeyOf(obj)
      return key ? [{ step: WHERE_STEP, key }] : []
    }
  }
}
