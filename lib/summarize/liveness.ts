/**
 * Whether a destination's edge agent is reporting: its SyncTarget's
 * `status.lastSyncerHeartbeatTime` is younger than a threshold. The agent says it is alive once a
 * minute (`HEARTBEAT_MS`) and the center stores the time only when the stored one is a minute old
 * (lib/edge/heartbeat.ts), so a healthy edge's stored time can be up to about two minutes old;
 * three heartbeat periods (`STALE_AFTER_MS`) tolerates that plus one lost report before calling a
 * destination stale. Agents send a status only when it changes, so an unchanged report is exactly
 * as fresh as its agent's last heartbeat: that is also the age Summarizers compare with their
 * staleness threshold. A destination that never sent a heartbeat is not live.
 */
import { HEARTBEAT_MS } from '../edge/protocol.ts'
import type { JsonValue, KubeObject } from '../kube/types.ts'
import { isJsonObject } from '../patch/json-values.ts'

/** A destination whose last stored heartbeat is older than this is stale (3 heartbeat periods). */
export const STALE_AFTER_MS = 3 * HEARTBEAT_MS

/** The stored heartbeat time of a SyncTarget in epoch ms, or undefined when it never sent one. */
export function heartbeatAt(syncTarget: KubeObject | undefined): number | undefined {
  const status = syncTarget?.status as JsonValue | undefined
  const at = isJsonObject(status) ? status.lastSyncerHeartbeatTime : undefined
  const ms = typeof at === 'string' ? Date.parse(at) : Number.NaN
  return Number.isFinite(ms) ? ms : undefined
}

/** Whether a heartbeat at `beatAt` is younger than `thresholdMs` at `nowMs`. */
export function isLive(beatAt: number | undefined, nowMs: number, thresholdMs: number): boolean {
  return beatAt !== undefined && nowMs - beatAt < thresholdMs
}

/**
 * When the next live-to-stale transition among `beats` happens, as a delay from `nowMs` (so the
 * caller can look again then); undefined when none of them is live.
 */
export function nextStaleIn(
  beats: Iterable<number | undefined>,
  nowMs: number,
  thresholdMs: number
): number | undefined {
  let soonest: number | undefined
  for (const at of beats) {
    if (!isLive(at, nowMs, thresholdMs)) continue
    const due = (at as number) + thresholdMs - nowMs
    if (soonest === undefined || due < soonest) soonest = due
  }
  return soonest
}
