/**
 * The key formats of the reconcile steps, in one place for the steps (functions/reconcile-*) and
 * the watch relay (lib/relay), which must agree on them:
 * - mailbox: `<inventory-space-id>-mb-<synctarget-uid>` (the KubeStellar mailbox name), so a
 *   SyncTarget re-created with a new uid gets a new mailbox; its space is `root:espw:<mailbox>`
 *   (`mailboxSpacePath` builds it, `mailboxOfSpacePath` reads it back);
 * - where: `<workload-space-id>/<edgeplacement-name>`, naming one EdgePlacement and its
 *   SinglePlacementSlice whatever the space is later called;
 * - rollout: `<workload-space-id>/<rollout-name>`, the same shape, naming one Rollout.
 * Space ids come from an object's `kcp.io/cluster` annotation.
 */
import { ESPW } from '../apis/gvr.ts'
import { CLUSTER_ANNOTATION, type KubeObject } from '../kube/types.ts'

const MAILBOX_RE = /^([a-z0-9]+)-mb-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/
const WHERE_RE = /^([a-z0-9]+)\/([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)$/

function spaceOf(obj: KubeObject): string | undefined {
  return obj.metadata?.annotations?.[CLUSTER_ANNOTATION] || undefined
}

export function mailboxName(inventorySpaceId: string, syncTargetUid: string): string {
  return `${inventorySpaceId}-mb-${syncTargetUid}`
}

/** The mailbox of a SyncTarget object; undefined without space annotation or uid. */
export function mailboxOf(syncTarget: KubeObject): string | undefined {
  const space = spaceOf(syncTarget)
  const uid = syncTarget.metadata?.uid
  return space && uid ? mailboxName(space, uid) : undefined
}

export function parseMailboxName(
  name: string
): { inventorySpaceId: string; syncTargetUid: string } | undefined {
  const m = MAILBOX_RE.exec(name)
  return m?.[1] && m[2] ? { inventorySpaceId: m[1], syncTargetUid: m[2] } : undefined
}

export function isMailboxName(name: string): boolean {
  return MAILBOX_RE.test(name)
}

/** The SyncTarget uid a mailbox name carries; undefined for a name not in the mailbox format. */
export const syncTargetUidOfMailbox = (name: string): string | undefined =>
  MAILBOX_RE.exec(name)?.[2]

/** The path of a mailbox's space, a child of the edge service provider space: `root:espw:<name>`. */
export const mailboxSpacePath = (mailbox: string): string => `${ESPW}:${mailbox}`

/** The mailbox whose space has this path; undefined for any other path (deeper ones included). */
export function mailboxOfSpacePath(path: string): string | undefined {
  const prefix = `${ESPW}:`
  if (!path.startsWith(prefix)) return undefined
  const name = path.slice(prefix.length)
  return isMailboxName(name) ? name : undefined
}

export function whereKey(spaceId: string, name: string): string {
  return `${spaceId}/${name}`
}

/** The key of an EdgePlacement or SinglePlacementSlice; undefined without space or name. */
export function whereKeyOf(obj: KubeObject): string | undefined {
  const space = spaceOf(obj)
  const name = obj.metadata?.name
  return space && name ? whereKey(space, name) : undefined
}

export function parseWhereKey(key: string): { spaceId: string; name: string } | undefined {
  const m = WHERE_RE.exec(key)
  return m?.[1] && m[2] && m[2].length <= 253 ? { spaceId: m[1], name: m[2] } : undefined
}

/** The key of the rollout step for a Rollout of a space (the where key's shape). */
export const rolloutKey = whereKey
/** The key of a Rollout object; undefined without space or name. */
export const rolloutKeyOf = whereKeyOf
export const parseRolloutKey = parseWhereKey
