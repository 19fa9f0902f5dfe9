/**
 * Mailbox names: `<inventory-space-id>-mb-<synctarget-uid>`, as in the KubeStellar design, so a
 * mailbox identifies its SyncTarget's space and uid, and a SyncTarget deleted and re-created with
 * a new uid gets a new mailbox.
 */
import type { KubeObject } from '../../lib/kube/types.ts'

const MAILBOX_RE = /^([a-z0-9]+)-mb-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/

export function mailboxName(inventorySpaceId: string, syncTargetUid: string): string {
  return `${inventorySpaceId}-mb-${syncTargetUid}`
}

/** The mailbox of a SyncTarget object (its space comes from the kcp.io/cluster annotation). */
export function mailboxOf(syncTarget: KubeObject): string | undefined {
  const cluster = syncTarget.metadata.annotations?.['kcp.io/cluster']
  const uid = syncTarget.metadata.uid
  return cluster && uid ? mailboxName(cluster, uid) : undefined
}

export function parseMailboxName(
  name: string
): { inventorySpaceId: string; syncTargetUid: string } | undefined {
  const m = MAILBOX_RE.exec(name)
  return m?.[1] && m[2] ? { inventorySpaceId: m[1], syncTargetUid: m[2] } : undefined
}
