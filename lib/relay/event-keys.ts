/**
 * Maps a hub watch event to the reconcile-step keys it should wake, for the relay that runs outside
 * the Worker. SyncTargets wake their mailbox and every where-key; Workspaces in the edge service
 * provider space wake the mailbox they name; Locations wake every where-key (a relabel can change
 * any placement's selection); EdgePlacements and SinglePlacementSlices wake their own where-key.
 * The key formats mirror functions/reconcile-mailbox/names.ts and functions/reconcile-where/names.ts
 * (the test checks they agree), so this file stays free of Worker code.
 */
import { CLUSTER_ANNOTATION, type KubeObject } from '../kube/types.ts'

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

const MAILBOX_RE = /^[a-z0-9]+-mb-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

export function isMailboxName(name: string): boolean {
  return MAILBOX_RE.test(name)
}

function spaceOf(obj: KubeObject): string | undefined {
  return obj.metadata?.annotations?.[CLUSTER_ANNOTATION] || undefined
}

/** `<space-id>/<name>` of an EdgePlacement or SinglePlacementSlice; undefined without both. */
export function whereKeyOf(obj: KubeObject): string | undefined {
  const space = spaceOf(obj)
  const name = obj.metadata?.name
  return space && name ? `${space}/${name}` : undefined
}

/** `<inventory-space-id>-mb-<uid>` of a SyncTarget; undefined without space or uid. */
export function mailboxOf(syncTarget: KubeObject): string | undefined {
  const space = spaceOf(syncTarget)
  const uid = syncTarget.metadata?.uid
  return space && uid ? `${space}-mb-${uid}` : undefined
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
      if (spaceOf(obj) !== deps.espwSpaceId || !name || !isMailboxName(name)) return []
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
