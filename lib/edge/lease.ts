/**
 * An edge's lease: the cheap, frequent record that its agent is alive, kept apart from the
 * SyncTarget as Kubernetes keeps a node's Lease apart from its Node status. One key-value entry
 * per mailbox, in a namespace per inventory space (`edge-leases/<inventory-space-id>`, so one
 * space's leases are one Query and the writes of many spaces spread over partitions), keyed by the
 * SyncTarget's uid. Its value: `renewedAt`, the last heartbeat (epoch ms), and `statusAt`, the
 * heartbeat time last stored on the SyncTarget's status (so a renewal knows, without reading the
 * SyncTarget, whether that status is due for a refresh). A renewal is one unconditional put:
 * concurrent renewals of one lease all carry "alive now", so the last one winning loses nothing.
 * Readers (lib/summarize/liveness.ts `lastHeard`) take the later of the lease and the status.
 * The mailbox step drops the lease with the mailbox.
 */
import type { KvStore } from '../store/types.ts'

/**
 * A live edge's SyncTarget status heartbeat is refreshed when the stored one is this old (as a
 * kubelet reports an unchanged Node status every five minutes while renewing its Lease often).
 */
export const HEARTBEAT_STATUS_MS = 5 * 60_000

export type EdgeLease = {
  /** The last heartbeat, epoch ms. */
  renewedAt: number
  /** The heartbeat time last stored on the SyncTarget's status, epoch ms (0: unknown). */
  statusAt: number
}

/** The key-value namespace of one inventory space's leases. */
export const leaseNamespace = (inventorySpaceId: string) => `edge-leases/${inventorySpaceId}`

const finite = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0)

/** A stored value as a lease; anything else (written by no release) reads as never renewed. */
function asLease(value: unknown): EdgeLease {
  const o = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>
  return { renewedAt: finite(o.renewedAt), statusAt: finite(o.statusAt) }
}

/** The lease of one SyncTarget, or undefined when it was never renewed (one GetItem). */
export async function readLease(
  kv: KvStore,
  inventorySpaceId: string,
  syncTargetUid: string
): Promise<EdgeLease | undefined> {
  const entry = await kv.get(leaseNamespace(inventorySpaceId), syncTargetUid)
  return entry && asLease(entry.value)
}

/** Stores `lease` as the SyncTarget's (one unconditional PutItem). */
export async function writeLease(
  kv: KvStore,
  inventorySpaceId: string,
  syncTargetUid: string,
  lease: EdgeLease
): Promise<void> {
  await kv.put(leaseNamespace(inventorySpaceId), syncTargetUid, lease)
}

/** The last renewal of every lease of an inventory space, by SyncTarget uid (Query pages). */
export async function leasesOf(
  kv: KvStore,
  inventorySpaceId: string
): Promise<Map<string, number>> {
  const entries = await kv.list(leaseNamespace(inventorySpaceId))
  return new Map(entries.map((e) => [e.key, asLease(e.value).renewedAt]))
}

/** Forgets a SyncTarget's lease (repeatable: an absent one is no error). */
export async function dropLease(
  kv: KvStore,
  inventorySpaceId: string,
  syncTargetUid: string
): Promise<void> {
  await kv.delete(leaseNamespace(inventorySpaceId), syncTargetUid)
}
