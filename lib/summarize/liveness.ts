/**
 * Whether a destination's edge agent is reporting: the later of its lease's renewal
 * (lib/edge/lease.ts, renewed at each heartbeat, once a minute: `HEARTBEAT_MS`) and its
 * SyncTarget's `status.lastSyncerHeartbeatTime` is younger than a threshold. Three heartbeat
 * periods (`STALE_AFTER_MS`) tolerate a late report plus one lost before calling a destination
 * stale. Agents send a status only when it changes, so an unchanged report is exactly as fresh as
 * its agent's last heartbeat: that is also the age Summarizers compare with their staleness
 * threshold. A destination that never sent a heartbeat is not live.
 *
 * The status time is written only when an edge comes back (its lease older than STALE_AFTER_MS)
 * and, while it stays live, on its first heartbeat in each status window (HEARTBEAT_STATUS_MS;
 * lib/edge/heartbeat.ts), so two refreshes are that long apart, give or take a heartbeat period.
 * Between two status writes seen by a watcher, a gap of STALE_AFTER_MS or more thus means the edge
 * came back, except a gap that a refresh makes too (`cameBack`); an edge silent for less than that
 * window's end can come back unnoticed by watchers, so the summarize step looks again while one
 * of its destinations is in it (`nextComeBackCheckIn`).
 */
import { HEARTBEAT_STATUS_MS } from '../edge/lease.ts'
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

/** A status refresh comes up to a heartbeat period early or this late (a period, then some). */
export const REFRESH_GAP_MS = 2 * HEARTBEAT_MS

/** The later of a SyncTarget's status heartbeat and its lease's renewal (undefined: neither). */
export function lastHeard(
  syncTarget: KubeObject | undefined,
  leaseRenewedAt: number | undefined
): number | undefined {
  const status = heartbeatAt(syncTarget)
  const lease = leaseRenewedAt ? leaseRenewedAt : undefined
  if (status === undefined) return lease
  return lease === undefined ? status : Math.max(status, lease)
}

/**
 * Whether a status heartbeat written `gapMs` after the previous one seen means the edge came back
 * (rather than a periodic refresh of a live edge's status).
 */
export function cameBack(gapMs: number): boolean {
  const refresh =
    gapMs >= HEARTBEAT_STATUS_MS - HEARTBEAT_MS && gapMs < HEARTBEAT_STATUS_MS + REFRESH_GAP_MS
  return gapMs >= STALE_AFTER_MS && !refresh
}

/**
 * When to look again for edges that may come back unseen by watchers: destinations heard from
 * between STALE_AFTER_MS and HEARTBEAT_STATUS_MS + REFRESH_GAP_MS ago, whose return would write a
 * status that `cameBack` cannot tell from a refresh. A heartbeat period from now while any is in
 * that window; undefined when none is.
 */
export function nextComeBackCheckIn(
  beats: Iterable<number | undefined>,
  nowMs: number
): number | undefined {
  for (const at of beats) {
    if (at === undefined) continue
    const age = nowMs - at
    if (age >= STALE_AFTER_MS && age < HEARTBEAT_STATUS_MS + REFRESH_GAP_MS) return HEARTBEAT_MS
  }
  return undefined
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
