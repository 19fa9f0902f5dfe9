/**
 * An edge's lease: the cheap, frequent record that its agent is alive, kept apart from the
 * SyncTarget as Kubernetes keeps a node's Lease apart from its Node status. One key-value entry
 * per SyncTarget, in a namespace per inventory space (`edge-leases/<inventory-space-id>`, so one
 * space's leases are one Query and the writes of many spaces spread over partitions), keyed by the
 * SyncTarget's uid, holding `renewedAt`, the last heartbeat (epoch ms), and what that heartbeat's
 * agent said of itself (`agentVersion`, `pollIntervalSeconds`, and how its last poll went:
 * `pollMode`, `holdSeconds`, `lastPollAt`; each absent when it said nothing of it, as agents
 * before them and leases written before them). A renewal is one swap (an unconditional
 * UpdateItem that answers the lease it replaced) of the whole value: concurrent renewals all carry
 * "alive now", so the last one winning loses nothing, and each learns when the edge was heard
 * before it. Readers (lib/summarize/liveness.ts `lastHeard`) take the later of the lease and the
 * SyncTarget's status heartbeat, which lib/edge/heartbeat.ts writes when an edge comes back and
 * once per `statusWindow`; `edgeRecordsOf` answers a space's leases whole (for a view of the
 * edges). The mailbox step drops the lease with the mailbox.
 */
import { fnv1a } from '../fnv.ts'
import type { KvStore } from '../store/types.ts'
import { type AgentInfo, AgentInfoSchema, type PollMode } from './protocol.ts'

/**
 * A live edge's SyncTarget status heartbeat is refreshed once per window this long, while its
 * lease is renewed at every heartbeat (as a kubelet renews its Lease often and reports an
 * unchanged Node status only every few minutes). Ten minutes, not a kubelet's five: a fifth of
 * all steady heartbeats wrote the status at five, most of an idle fleet's heartbeat CPU, and
 * liveness is read from the lease (docs/SCALING.md §3, 10,000 edges).
 */
export const HEARTBEAT_STATUS_MS = 10 * 60_000

export type EdgeLease = {
  /** The last heartbeat, epoch ms (0: a stored value no release wrote). */
  renewedAt: number
  /** The agent's version, as the last heartbeat told it (lib/edge/protocol.ts AgentInfo). */
  agentVersion?: string
  /** The agent's poll interval in seconds, as the last heartbeat told it. */
  pollIntervalSeconds?: number
  /** How the agent's last poll before that heartbeat went: held by the center, or plain. */
  pollMode?: PollMode
  /** The hold the agent asks, seconds (0: plain polls by choice). */
  holdSeconds?: number
  /** When the agent's last poll before that heartbeat was answered (RFC 3339, its clock). */
  lastPollAt?: string
}

/** The lease fields of each AgentInfo field (the agent's `version` is the lease's `agentVersion`). */
const FIELDS = [
  ['version', 'agentVersion'],
  ['pollIntervalSeconds', 'pollIntervalSeconds'],
  ['pollMode', 'pollMode'],
  ['holdSeconds', 'holdSeconds'],
  ['lastPollAt', 'lastPollAt'],
] as const satisfies readonly (readonly [keyof AgentInfo, keyof EdgeLease])[]

/** The key-value namespace of one inventory space's leases. */
export const leaseNamespace = (inventorySpaceId: string) => `edge-leases/${inventorySpaceId}`

/** A stored value's last renewal (epoch ms); 0 for anything no release wrote. */
export function renewedAtOf(value: unknown): number {
  const at = (value as { renewedAt?: unknown } | null)?.renewedAt
  return typeof at === 'number' && Number.isFinite(at) ? at : 0
}

/**
 * A stored value as a lease; anything else (written by no release) reads as never renewed, and an
 * agent field no release wrote as unsaid.
 */
function asLease(value: unknown): EdgeLease {
  const o = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>
  const lease: Record<string, unknown> = { renewedAt: renewedAtOf(value) }
  for (const [field, key] of FIELDS) {
    const parsed = AgentInfoSchema.shape[field].safeParse(o[key])
    if (parsed.success && parsed.data !== undefined) lease[key] = parsed.data
  }
  return lease as EdgeLease
}

/** Where in the window the edge's status refresh falls: a hash of its uid. */
const offsetOf = (uid: string) => fnv1a(uid) % HEARTBEAT_STATUS_MS

/**
 * The status-refresh window of the SyncTarget `uid` at `ms`: windows are HEARTBEAT_STATUS_MS long
 * and each edge's start at its own offset, so that 10,000 edges do not all refresh at once.
 */
export const statusWindow = (uid: string, ms: number) =>
  Math.floor((ms + offsetOf(uid)) / HEARTBEAT_STATUS_MS)

/** The lease of one SyncTarget, or undefined when it was never renewed (one GetItem). */
export async function readLease(
  kv: KvStore,
  inventorySpaceId: string,
  syncTargetUid: string
): Promise<EdgeLease | undefined> {
  const entry = await kv.get(leaseNamespace(inventorySpaceId), syncTargetUid)
  return entry && asLease(entry.value)
}

/** A renewal: its time (epoch ms) and what the agent said of itself with it, if anything. */
export type Renewal = { nowMs: number; agent?: AgentInfo | undefined }

/**
 * Renews the SyncTarget's lease at `at` (epoch ms, or a Renewal: the agent's word is recorded with
 * it, and a renewal without one leaves the lease without); the lease it replaced, if any (one
 * UpdateItem).
 */
export async function renewLease(
  kv: KvStore,
  inventorySpaceId: string,
  syncTargetUid: string,
  at: number | Renewal
): Promise<EdgeLease | undefined> {
  const { nowMs, agent } = typeof at === 'number' ? { nowMs: at, agent: undefined } : at
  const lease: Record<string, unknown> = { renewedAt: nowMs }
  for (const [field, key] of FIELDS) if (agent?.[field] !== undefined) lease[key] = agent[field]
  const before = await kv.swap(leaseNamespace(inventorySpaceId), syncTargetUid, lease)
  return before && asLease(before.value)
}

/** Every lease of an inventory space, whole, by SyncTarget uid (one Query, in pages). */
export async function edgeRecordsOf(
  kv: KvStore,
  inventorySpaceId: string
): Promise<Map<string, EdgeLease>> {
  const entries = await kv.list(leaseNamespace(inventorySpaceId))
  return new Map(entries.map((e) => [e.key, asLease(e.value)]))
}

/** The last renewal of every lease of an inventory space, by SyncTarget uid (Query pages). */
export async function leasesOf(
  kv: KvStore,
  inventorySpaceId: string
): Promise<Map<string, number>> {
  // Only the times: the summarize step reads every lease of a space per batch, and decoding each
  // one's agent fields there is work nobody uses.
  const entries = await kv.list(leaseNamespace(inventorySpaceId))
  return new Map(entries.map((e) => [e.key, renewedAtOf(e.value)]))
}

/** Forgets a SyncTarget's lease (repeatable: an absent one is no error). */
export async function dropLease(
  kv: KvStore,
  inventorySpaceId: string,
  syncTargetUid: string
): Promise<void> {
  await kv.delete(leaseNamespace(inventorySpaceId), syncTargetUid)
}
