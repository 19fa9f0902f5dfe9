/**
 * Edge liveness, recorded coarsely: a report with `heartbeat` sets its SyncTarget's
 * `status.lastSyncerHeartbeatTime` only when the stored time is older than `HEARTBEAT_WRITE_MS`,
 * so an agent polling every few seconds costs at most one SyncTarget write a minute. The SyncTarget
 * lives in the inventory space named by the mailbox name (`<inventory-space-id>-mb-<uid>`); its
 * name comes from the mailbox Workspace's `edge.kcp.io/sync-target-name` annotation (or, without
 * it, a list by uid) and is remembered for good, since a mailbox name fixes the SyncTarget's uid.
 * A memo (the hub's, `deps.caches.heartbeats`, lib/hub/hub-caches.ts) also skips the read itself for `HEARTBEAT_CHECK_MS` after a check and while
 * the last known time is younger than `HEARTBEAT_WRITE_MS`: a warm heartbeat reads nothing, a
 * due one reads the SyncTarget (one GetItem) and writes its status (through the hub's update
 * logic, as a status-subresource write). A lost race (409) means another process just wrote it.
 */
import { ESPW, SYNC_TARGET_NAME_ANNOTATION, SYNC_TARGETS, WORKSPACES } from '../apis/gvr.ts'
import { isApiError } from '../errors.ts'
import type { HubDeps } from '../hub/deps.ts'
import type { HeartbeatMemo } from '../hub/hub-caches.ts'
import { defaultWriteOptions } from '../hub/options.ts'
import { getSpaceById, getSpaceByPath } from '../hub/spaces.ts'
import type { Target } from '../hub/target.ts'
import { commitUpdate } from '../hub/update.ts'
import { BUILTIN_RESOURCES } from '../kube/builtin-resources.ts'
import { timestamp } from '../kube/time.ts'
import type { JsonObject, JsonValue, KubeObject } from '../kube/types.ts'
import { isJsonObject } from '../patch/json-values.ts'
import { parseMailboxName } from '../reconcile/keys.ts'

/** A stored heartbeat younger than this is not rewritten. */
export const HEARTBEAT_WRITE_MS = 60_000
/** After a check, the next one waits this long. */
export const HEARTBEAT_CHECK_MS = 30_000
/** The field manager of heartbeat writes. */
export const HEARTBEAT_MANAGER = 'edge-heartbeat'

const MEMO_LIMIT = 20_000

export type HeartbeatOutcome = 'remembered' | 'fresh' | 'written' | 'raced' | 'unknown'

const syncTargetInfo = BUILTIN_RESOURCES.find(
  (r) => r.group === SYNC_TARGETS.group && r.resource === SYNC_TARGETS.resource
)

async function syncTargetName(
  deps: HubDeps,
  mailbox: string,
  inventory: string,
  uid: string
): Promise<string | undefined> {
  const espw = await getSpaceByPath(deps.kv, ESPW)
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

function heartbeatOf(st: KubeObject): number {
  const status = st.status as JsonValue | undefined
  const at = isJsonObject(status) ? status.lastSyncerHeartbeatTime : undefined
  const ms = typeof at === 'string' ? Date.parse(at) : Number.NaN
  return Number.isFinite(ms) ? ms : 0
}

async function writeHeartbeat(deps: HubDeps, inventory: string, st: KubeObject, now: Date) {
  const space = await getSpaceById(deps.kv, inventory)
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

/** Records that the agent of `mailbox` (a mailbox name) is alive, coarsely. */
export async function recordHeartbeat(
  deps: HubDeps,
  mailbox: string,
  memo: HeartbeatMemo = deps.caches.heartbeats
): Promise<HeartbeatOutcome> {
  const now = deps.now()
  const ms = now.getTime()
  const known = memo.get(mailbox)
  if (
    known &&
    (ms - known.checkedAt < HEARTBEAT_CHECK_MS || ms - known.beatAt < HEARTBEAT_WRITE_MS)
  )
    return 'remembered'
  const parsed = parseMailboxName(mailbox)
  if (!parsed) return 'unknown'
  const { inventorySpaceId: inventory, syncTargetUid: uid } = parsed
  const target = known?.target ?? (await syncTargetName(deps, mailbox, inventory, uid))
  if (memo.size >= MEMO_LIMIT) memo.clear()
  const remember = (beatAt: number) =>
    memo.set(mailbox, { checkedAt: ms, beatAt, ...(target ? { target } : {}) })
  if (!target) {
    remember(0)
    return 'unknown'
  }
  const st = await deps.objects.get({
    cluster: inventory,
    group: SYNC_TARGETS.group,
    resource: SYNC_TARGETS.resource,
    namespace: '',
    name: target,
  })
  if (!st || st.metadata.uid !== uid || st.metadata.deletionTimestamp) {
    remember(0)
    return 'unknown'
  }
  const stored = heartbeatOf(st)
  if (ms - stored < HEARTBEAT_WRITE_MS) {
    remember(stored)
    return 'fresh'
  }
  const written = await writeHeartbeat(deps, inventory, st, now)
  remember(written ? ms : stored)
  return written ? 'written' : 'raced'
}
