/**
 * Edge liveness, in two records (as Kubernetes splits a node's Lease from its Node status): each
 * heartbeat renews the edge's lease (lease.ts: one swap in the key-value store, which also answers
 * the previous renewal; no object write, no event), and the SyncTarget's
 * `status.lastSyncerHeartbeatTime` is written only when the edge comes back (no lease before, or
 * one older than STALE_AFTER_MS, and a stored status time as old: that write is the event that
 * wakes the summarize step) or on its first heartbeat in a new `statusWindow` (every
 * HEARTBEAT_STATUS_MS, each edge at its own offset, so that `kubectl get synctargets` stays
 * roughly current). The SyncTarget lives in the inventory space named by the mailbox name
 * (`<inventory-space-id>-mb-<uid>`); its name comes from the mailbox Workspace's
 * `edge.kcp.io/sync-target-name` annotation (or, without it, a list by uid) and is remembered for
 * good, since a mailbox name fixes the SyncTarget's uid. The renewal also records what the agent
 * said of itself (its version and poll interval, the report's `agent`) in the lease, in the same
 * swap. A memo (the hub's, `deps.caches.heartbeats`, lib/hub/hub-caches.ts) skips everything for
 * `HEARTBEAT_CHECK_MS` after a renewal, so duplicate reports cost nothing — unless the agent now
 * says something else of itself (upgraded, or restarted with another interval): that beat renews
 * at once. A status write that loses a race (409), or finds the status already written in this
 * window, means another process just wrote it.
 */
import { ESPW, SYNC_TARGET_NAME_ANNOTATION, SYNC_TARGETS, WORKSPACES } from '../apis/gvr.ts'
import { isApiError } from '../errors.ts'
import type { HubDeps } from '../hub/deps.ts'
import type { HeartbeatMemo } from '../hub/hub-caches.ts'
import { defaultWriteOptions } from '../hub/options.ts'
import { resolveSpaceCached } from '../hub/space-cache.ts'
import type { Target } from '../hub/target.ts'
import { commitUpdate } from '../hub/update.ts'
import { BUILTIN_RESOURCES } from '../kube/builtin-resources.ts'
import { timestamp } from '../kube/time.ts'
import type { JsonObject, JsonValue, KubeObject } from '../kube/types.ts'
import { isJsonObject } from '../patch/json-values.ts'
import { parseMailboxName } from '../reconcile/keys.ts'
import { heartbeatAt, STALE_AFTER_MS } from '../summarize/liveness.ts'
import { dropLease, renewLease, statusWindow } from './lease.ts'
import type { AgentInfo } from './protocol.ts'

/** After a renewal, the next one waits this long. */
export const HEARTBEAT_CHECK_MS = 30_000
/** The field manager of heartbeat writes. */
export const HEARTBEAT_MANAGER = 'edge-heartbeat'

const MEMO_LIMIT = 20_000

/**
 * What a heartbeat did: nothing (`remembered`), renewed the lease only (`renewed`), also wrote the
 * SyncTarget's status (`written`), found it just written by another process (`raced`), or found no
 * live SyncTarget of that mailbox (`unknown`, its lease dropped).
 */
export type HeartbeatOutcome = 'remembered' | 'renewed' | 'written' | 'raced' | 'unknown'

/** What the agent said of itself, as the memo compares it ('' for nothing; no version has a space). */
export const agentKey = (agent: AgentInfo | undefined) =>
  agent ? `${agent.version} ${agent.pollIntervalSeconds}` : ''

const syncTargetInfo = BUILTIN_RESOURCES.find(
  (r) => r.group === SYNC_TARGETS.group && r.resource === SYNC_TARGETS.resource
)

async function syncTargetName(
  deps: HubDeps,
  mailbox: string,
  inventory: string,
  uid: string
): Promise<string | undefined> {
  const espw = await resolveSpaceCached(deps.kv, ESPW, deps.now().getTime())
  const ws =
    espw &&
    (await deps.objects.get({
      cluster: espw.id,
      group: WORKSPACES.group,
      resource: WORKSPACES.resource,
      namespace: '',
      name: mailbox,
    }))
  const named = ws?.metadata.annotations?.[SYNC_TARGET_NAME_ANNOTATION]
  if (named) return named
  const { group, resource } = SYNC_TARGETS
  const all = await deps.objects.list({ cluster: inventory, group, resource })
  return all.items.find((o) => o.metadata.uid === uid)?.metadata.name
}

async function writeHeartbeat(deps: HubDeps, inventory: string, st: KubeObject, now: Date) {
  // The space's record as the API remembers it (space-cache.ts): two reads fewer per status write.
  const space = await resolveSpaceCached(deps.kv, inventory, now.getTime())
  if (!space || !syncTargetInfo) return false
  const t: Target = { space, info: syncTargetInfo, version: SYNC_TARGETS.version }
  const old = st.status as JsonValue | undefined
  const status: JsonObject = { ...(isJsonObject(old) ? old : {}) }
  status.lastSyncerHeartbeatTime = timestamp(now)
  const opts = defaultWriteOptions({ fieldManager: HEARTBEAT_MANAGER, fieldValidation: 'Strict' })
  try {
    await commitUpdate(deps, t, { read: st, next: { ...st, status }, opts, sub: 'status' })
    return true
  } catch (e) {
    if (isApiError(e) && (e.code === 409 || e.code === 404)) return false
    throw e
  }
}

/**
 * Writes the SyncTarget's status heartbeat unless `written(stored)` says another process already
 * did; undefined when the mailbox has no live SyncTarget.
 */
async function refreshStatus(
  deps: HubDeps,
  at: { inventory: string; uid: string; target: string | undefined },
  written: (stored: number) => boolean
): Promise<HeartbeatOutcome | undefined> {
  if (!at.target) return undefined
  const st = await deps.objects.get({
    cluster: at.inventory,
    group: SYNC_TARGETS.group,
    resource: SYNC_TARGETS.resource,
    namespace: '',
    name: at.target,
  })
  if (!st || st.metadata.uid !== at.uid || st.metadata.deletionTimestamp) return undefined
  if (written(heartbeatAt(st) ?? 0)) return 'raced'
  return (await writeHeartbeat(deps, at.inventory, st, deps.now())) ? 'written' : 'raced'
}

/**
 * Records that the agent of `mailbox` (a mailbox name) is alive, and what it said of itself
 * (`agent`, the report's; none for an agent that says nothing).
 */
export async function recordHeartbeat(
  deps: HubDeps,
  mailbox: string,
  memo: HeartbeatMemo = deps.caches.heartbeats,
  agent?: AgentInfo
): Promise<HeartbeatOutcome> {
  const ms = deps.now().getTime()
  const known = memo.get(mailbox)
  const said = agentKey(agent)
  const same = (known?.agent ?? '') === said
  if (known && same && ms - known.checkedAt < HEARTBEAT_CHECK_MS) return 'remembered'
  const parsed = parseMailboxName(mailbox)
  if (!parsed) return 'unknown'
  const { inventorySpaceId: inventory, syncTargetUid: uid } = parsed
  const before = (await renewLease(deps.kv, inventory, uid, { nowMs: ms, agent }))?.renewedAt
  const back = !before || ms - before >= STALE_AFTER_MS
  const window = statusWindow(uid, ms)
  const remember = (target: string | undefined) => {
    if (memo.size >= MEMO_LIMIT) memo.clear()
    memo.set(mailbox, {
      checkedAt: ms,
      ...(target ? { target } : {}),
      ...(said ? { agent: said } : {}),
    })
  }
  if (!back && statusWindow(uid, before) === window) {
    remember(known?.target)
    return 'renewed'
  }
  const target = known?.target ?? (await syncTargetName(deps, mailbox, inventory, uid))
  remember(target)
  // Once in this window, whoever writes it; but a return the status has not seen yet (it is
  // stale too) must move it now. A lost lease beside a live status (a new release's first beat)
  // is no return to anyone reading: a fleet upgraded at once writes no status for it.
  const written = (stored: number) =>
    statusWindow(uid, stored) === window && !(back && ms - stored >= STALE_AFTER_MS)
  const outcome = await refreshStatus(deps, { inventory, uid, target }, written)
  if (outcome) return outcome
  await dropLease(deps.kv, inventory, uid)
  return 'unknown'
}
