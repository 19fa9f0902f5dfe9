/**
 * The one staleness rule of edges, read by every view of them (the summarize step, the SyncTarget's
 * Ready condition and the sweep that keeps it, the dashboard, /metrics): a destination's edge
 * agent is reporting while it was last heard — the later of its lease's renewal
 * (lib/edge/lease.ts, renewed at each heartbeat, once a minute: `HEARTBEAT_MS`) and its
 * SyncTarget's `status.lastSyncerHeartbeatTime` — less than `staleAfterMs` ago. By default three
 * heartbeat periods (`STALE_AFTER_MS`, 3 minutes) tolerate a late report plus one lost before
 * calling a destination stale; every message naming the threshold states the configured one. `Liveness` is that rule as configured: the Worker's
 * `EDGE_STALE_AFTER_SECONDS` (lib/env.ts, for tests and fleets whose agents beat faster; agents
 * must beat at least three times within it) makes `livenessRule`, carried by HubDeps; the
 * default is `DEFAULT_LIVENESS`. Agents send a status only when it changes, so an unchanged report
 * is exactly as fresh as its agent's last heartbeat: that is also the age Summarizers compare
 * with their staleness threshold. A destination that never sent a heartbeat is not live.
 *
 * The status time is written only when an edge comes back (its lease older than the threshold)
 * and, while it stays live, on its first heartbeat in each status window (HEARTBEAT_STATUS_MS;
 * lib/edge/heartbeat.ts), so two refreshes are that long apart, give or take a heartbeat period.
 * Between two status writes seen by a watcher, a gap of the threshold or more thus means the edge
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

/** The staleness rule as configured. */
export type Liveness = {
  /** The heartbeat period agents keep (ms): HEARTBEAT_MS, or a third of a shorter threshold. */
  heartbeatMs: number
  /** An edge last heard this long ago or more is stale. */
  staleAfterMs: number
}

export const DEFAULT_LIVENESS: Liveness = {
  heartbeatMs: HEARTBEAT_MS,
  staleAfterMs: STALE_AFTER_MS,
}

/** The rule `deps` carry (HubDeps.liveness), or the default. */
export const livenessOf = (deps: { liveness?: Liveness | undefined }): Liveness =>
  deps.liveness ?? DEFAULT_LIVENESS

/** The rule for a threshold in seconds (none: the default). */
export function livenessRule(staleAfterSeconds?: number): Liveness {
  if (staleAfterSeconds === undefined) return DEFAULT_LIVENESS
  const staleAfterMs = staleAfterSeconds * 1000
  return { staleAfterMs, heartbeatMs: Math.min(HEARTBEAT_MS, Math.floor(staleAfterMs / 3)) }
}

/** Where an edge stands by the rule: heard within the threshold, silent longer, or never heard. */
export type EdgeLiveness = 'Heartbeating' | 'Stale' | 'NeverSeen'

export function livenessAt(
  beatAt: number | undefined,
  nowMs: number,
  rule: Liveness = DEFAULT_LIVENESS
): EdgeLiveness {
  if (beatAt === undefined) return 'NeverSeen'
  return isLive(beatAt, nowMs, rule.staleAfterMs) ? 'Heartbeating' : 'Stale'
}

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
export function cameBack(gapMs: number, rule: Liveness = DEFAULT_LIVENESS): boolean {
  const beat = rule.heartbeatMs
  const refresh = gapMs >= HEARTBEAT_STATUS_MS - beat && gapMs < HEARTBEAT_STATUS_MS + 2 * beat
  return gapMs >= rule.staleAfterMs && !refresh
}

/**
 * When to look again for edges that may come back unseen by watchers: destinations heard from
 * between the threshold and HEARTBEAT_STATUS_MS + two heartbeat periods (REFRESH_GAP_MS by
 * default) ago, whose return would write a status that `cameBack` cannot tell from a refresh. A
 * heartbeat period from now while any is in that window; undefined when none is.
 */
export function nextComeBackCheckIn(
  beats: Iterable<number | undefined>,
  nowMs: number,
  rule: Liveness = DEFAULT_LIVENESS
): number | undefined {
  const end = HEARTBEAT_STATUS_MS + 2 * rule.heartbeatMs
  for (const at of beats) {
    if (at === undefined) continue
    const age = nowMs - at
    if (age >= rule.staleAfterMs && age < end) return rule.heartbeatMs
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
