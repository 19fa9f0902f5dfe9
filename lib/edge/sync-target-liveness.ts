/**
 * The one writer of the liveness part of a SyncTarget's status — `lastSyncerHeartbeatTime`, the
 * `Ready` condition and `agentVersion` (sync-target-ready.ts says what they should be), field
 * manager `edge-heartbeat` — run from two places: a heartbeat that must write its status
 * (heartbeat.ts: the edge came back, a new status window, another agent version) and the cron's
 * liveness sweep (liveness-sweep.ts), which notices what arrives with no event: an edge turning
 * stale, a SyncTarget no agent ever heard from, a heartbeat's write that lost a race. Level-based:
 * the status is computed from what the center knows now (the rule of lib/summarize/liveness.ts
 * over the lease and the stored heartbeat), written only when it differs (or a heartbeat time is
 * to be stored), as an update of the status subresource whose resourceVersion precondition is the
 * SyncTarget read; a 409 or 404 means another writer moved it first, and the next sweep looks
 * again.
 */
import { SYNC_TARGETS } from '../apis/gvr.ts'
import { isApiError } from '../errors.ts'
import type { HubDeps } from '../hub/deps.ts'
import { defaultWriteOptions } from '../hub/options.ts'
import { resolveSpaceCached } from '../hub/space-cache.ts'
import type { Target } from '../hub/target.ts'
import { commitUpdate } from '../hub/update.ts'
import { BUILTIN_RESOURCES } from '../kube/builtin-resources.ts'
import { timestamp } from '../kube/time.ts'
import type { KubeObject } from '../kube/types.ts'
import { livenessOf } from '../summarize/liveness.ts'
import { type AgentHeard, livenessHolds, livenessStatus, readyWanted } from './sync-target-ready.ts'

/** The field manager of the SyncTarget's liveness status. */
export const HEARTBEAT_MANAGER = 'edge-heartbeat'

const syncTargetInfo = BUILTIN_RESOURCES.find(
  (r) => r.group === SYNC_TARGETS.group && r.resource === SYNC_TARGETS.resource
)

/** What a write did: stored, found nothing to change, or lost to another writer. */
export type LivenessWrite = 'written' | 'unchanged' | 'raced'

export type LivenessAt = {
  /** The inventory space's id. */
  inventory: string
  /** The SyncTarget as read: its resourceVersion is the write's precondition. */
  st: KubeObject
  heard: AgentHeard
  /** A heartbeat now: store it as lastSyncerHeartbeatTime, and write even if nothing else moved. */
  beat?: boolean
}

/** Whether the stored status already says what `heard` calls for (no write needed). */
export function livenessCurrent(deps: HubDeps, st: KubeObject, heard: AgentHeard): boolean {
  const ready = readyWanted(heard, deps.now().getTime(), livenessOf(deps))
  return livenessHolds(st, { ready, agentVersion: heard.agentVersion })
}

/** Writes the SyncTarget's liveness status as `at` calls for. */
export async function writeLiveness(deps: HubDeps, at: LivenessAt): Promise<LivenessWrite> {
  const now = deps.now()
  const { st, heard } = at
  const ready = readyWanted(heard, now.getTime(), livenessOf(deps))
  const want = { ready, agentVersion: heard.agentVersion }
  if (!at.beat && livenessHolds(st, want)) return 'unchanged'
  // The space's record as the API remembers it (space-cache.ts): two reads fewer per status write.
  const space = await resolveSpaceCached(deps.kv, at.inventory, now.getTime())
  if (!space || !syncTargetInfo) return 'raced'
  const t: Target = { space, info: syncTargetInfo, version: SYNC_TARGETS.version }
  const stamp = timestamp(now)
  const status = livenessStatus(st, at.beat ? { ...want, heartbeatAt: stamp } : want, stamp)
  const opts = defaultWriteOptions({ fieldManager: HEARTBEAT_MANAGER, fieldValidation: 'Strict' })
  try {
    await commitUpdate(deps, t, { read: st, next: { ...st, status }, opts, sub: 'status' })
    return 'written'
  } catch (e) {
    if (isApiError(e) && (e.code === 409 || e.code === 404)) return 'raced'
    throw e
  }
}
