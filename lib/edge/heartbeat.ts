/**
 * Edge liveness, in two records (as Kubernetes splits a node's Lease from its Node status): each
 * heartbeat renews the edge's lease (lease.ts: one swap in the key-value store, which also answers
 * the previous renewal; no object write, no event), and the SyncTarget's status — its
 * `lastSyncerHeartbeatTime`, `Ready` condition and `agentVersion` (sync-target-liveness.ts, their
 * one writer) — is written only when the edge comes back (no lease before, or one older than the
 * staleness threshold of lib/summarize/liveness.ts, and a stored status time as old: that write is
 * the event that wakes the summarize step and turns Ready True), when its agent says another
 * version than the lease holds (an upgrade: the VERSION column), or on its first heartbeat in a
 * new `statusWindow` (every HEARTBEAT_STATUS_MS, each edge at its own offset, so that a Node-like
 * status refresh comes every ten minutes). Turning stale has no heartbeat: the cron's liveness
 * sweep (liveness-sweep.ts) writes that. The SyncTarget lives in the inventory space named by the
 * mailbox name (`<inventory-space-id>-mb-<uid>`); its name comes from the mailbox Workspace's
 * `edge.kcp.io/sync-target-name` annotation (or, without it, a list by uid) and is remembered for
 * good, since a mailbox name fixes the SyncTarget's uid. The renewal also records what the agent
 * said of itself (the report's `agent`: version, interval, how its last poll went) in the lease,
 * in the same swap. A memo (the hub's, `deps.caches.heartbeats`, lib/hub/hub-caches.ts) skips everything for
 * `HEARTBEAT_CHECK_MS` (or half the configured heartbeat period, if shorter) after a renewal, so
 * duplicate reports cost nothing — unless the agent now says something else of itself (upgraded,
 * restarted with another interval or hold, or its polls turned held or plain): that beat renews
 * at once. The time of its last poll is not part of that (it moves at every poll): the lease
 * takes it with the next renewal the memo lets through. A status write that loses a
 * race (409), or finds the status already written in this window and saying the same, means
 * another process just wrote it.
 */
import { ESPW, SYNC_TARGET_NAME_ANNOTATION, SYNC_TARGETS, WORKSPACES } from '../apis/gvr.ts'
import type { HubDeps } from '../hub/deps.ts'
import type { HeartbeatMemo } from '../hub/hub-caches.ts'
import { resolveSpaceCached } from '../hub/space-cache.ts'
import type { KubeObject } from '../kube/types.ts'
import { parseMailboxName } from '../reconcile/keys.ts'
import { heartbeatAt, livenessOf } from '../summarize/liveness.ts'
import { dropLease, renewLease, statusWindow } from './lease.ts'
import type { AgentInfo } from './protocol.ts'
import { livenessCurrent, writeLiveness } from './sync-target-liveness.ts'

export { HEARTBEAT_MANAGER } from './sync-target-liveness.ts'

/** After a renewal, the next one waits this long (at most half the heartbeat period). */
export const HEARTBEAT_CHECK_MS = 30_000

/**
 * What a heartbeat did: nothing (`remembered`), renewed the lease only (`renewed`), also wrote the
 * SyncTarget's status (`written`), found it just written by another process (`raced`), or found no
 * live SyncTarget of that mailbox (`unknown`, its lease dropped).
 */
export type HeartbeatOutcome = 'remembered' | 'renewed' | 'written' | 'raced' | 'unknown'

/**
 * What the agent said of itself, as the memo compares it ('' for nothing; no version has a space):
 * its version, interval, poll mode and hold — never `lastPollAt`, which moves at every poll and
 * would make every beat renew at once; the lease takes it with the next renewal.
 */
export const agentKey = (agent: AgentInfo | undefined) =>
  agent
    ? `${agent.version} ${agent.pollIntervalSeconds} ${agent.pollMode ?? '-'} ${agent.holdSeconds ?? '-'}`
    : ''

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

/** What the heartbeat at hand knows, and whether the stored status already has it. */
type Beat = {
  inventory: string
  uid: string
  target: string | undefined
  agentVersion: string | undefined
  /** Whether `st` already holds this window's heartbeat and says what this beat calls for. */
  written: (st: KubeObject) => boolean
}

/**
 * Writes the SyncTarget's liveness status with this heartbeat unless `beat.written` says another
 * process already did; undefined when the mailbox has no live SyncTarget.
 */
async function refreshStatus(deps: HubDeps, beat: Beat): Promise<HeartbeatOutcome | undefined> {
  if (!beat.target) return undefined
  const st = await deps.objects.get({
    cluster: beat.inventory,
    group: SYNC_TARGETS.group,
    resource: SYNC_TARGETS.resource,
    namespace: '',
    name: beat.target,
  })
  if (!st || st.metadata.uid !== beat.uid || st.metadata.deletionTimestamp) return undefined
  if (beat.written(st)) return 'raced'
  const heard = { lastHeard: deps.now().getTime(), agentVersion: beat.agentVersion }
  const done = await writeLiveness(deps, { inventory: beat.inventory, st, heard, beat: true })
  return done === 'written' ? 'written' : 'raced'
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
  const rule = livenessOf(deps)
  const known = memo.get(mailbox)
  const said = agentKey(agent)
  const same = (known?.agent ?? '') === said
  const checkMs = Math.min(HEARTBEAT_CHECK_MS, rule.heartbeatMs / 2)
  if (known && same && ms - known.checkedAt < checkMs) return 'remembered'
  const parsed = parseMailboxName(mailbox)
  if (!parsed) return 'unknown'
  const { inventorySpaceId: inventory, syncTargetUid: uid } = parsed
  const before = await renewLease(deps.kv, inventory, uid, { nowMs: ms, agent })
  const back = !before?.renewedAt || ms - before.renewedAt >= rule.staleAfterMs
  // Another version than the lease held: the status says which agent runs (an upgrade).
  const upgraded = !!before && before.agentVersion !== agent?.version
  const window = statusWindow(uid, ms)
  const remember = (target: string | undefined) => {
    memo.set(mailbox, {
      checkedAt: ms,
      ...(target ? { target } : {}),
      ...(said ? { agent: said } : {}),
    })
  }
  if (!back && !upgraded && statusWindow(uid, before.renewedAt) === window) {
    remember(known?.target)
    return 'renewed'
  }
  const target = known?.target ?? (await syncTargetName(deps, mailbox, inventory, uid))
  remember(target)
  const agentVersion = agent?.version
  // Once in this window, whoever writes it; but a return the status has not seen yet (it is
  // stale too) must move it now, and so must a status that says something else (another
  // version, Ready not True). A lost lease beside a live status (a new release's first beat) is
  // no return to anyone reading: a fleet upgraded at once writes no status for it.
  const written = (st: KubeObject) => {
    const stored = heartbeatAt(st) ?? 0
    const inWindow = statusWindow(uid, stored) === window
    const returned = back && ms - stored >= rule.staleAfterMs
    return inWindow && !returned && livenessCurrent(deps, st, { lastHeard: ms, agentVersion })
  }
  const outcome = await refreshStatus(deps, { inventory, uid, target, agentVersion, written })
  if (outcome) return outcome
  await dropLease(deps.kv, inventory, uid)
  return 'unknown'
}
