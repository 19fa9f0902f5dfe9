/**
 * The pace of the summarize step's Events, after kube's event recorder (its correlator counts
 * repeats on one Event and a token bucket per object keeps a flood down; the API server forgets
 * an Event an hour after it was last seen, `--event-ttl`). Level-based here: each run knows the
 * message an Event should carry now and finds the Event recorded before (deterministic name), so
 * - none recorded, or one last seen more than EVENT_TTL_MS ago (expired, not swept yet): record a
 *   first occurrence (count 1);
 * - the same message: nothing, unless it was last seen EVENT_REPEAT_MS ago or more — a problem
 *   that persists is recorded again (count + 1, lastTimestamp now), so its Event outlives the TTL
 *   exactly as long as the problem does; a report delivered twice changes nothing;
 * - another message (more edges, fewer, another text): count + 1 with the new message and time,
 *   but never sooner than EVENT_MIN_INTERVAL_MS after the last write; before that the change
 *   waits (the step asks to run again when it may).
 * Each run writes at most MAX_EVENT_WRITES Events and sweeps at most MAX_EVENT_SWEEPS expired ones.
 * Pure.
 */

export const EVENT_TTL_MS = 3_600_000
export const EVENT_MIN_INTERVAL_MS = 60_000
export const EVENT_REPEAT_MS = 600_000
export const MAX_EVENT_WRITES = 20
export const MAX_EVENT_SWEEPS = 50

/** What an earlier run recorded (an Event's own fields). */
export type Recorded = {
  message?: unknown
  count?: unknown
  lastTimestamp?: unknown
  firstTimestamp?: unknown
  metadata: { creationTimestamp?: string }
}

export type Pace =
  | { kind: 'create' }
  | { kind: 'restart' }
  | { kind: 'repeat'; count: number }
  | { kind: 'keep' }
  | { kind: 'wait'; ms: number }

/** When the Event was last seen (epoch ms); undefined when it says nothing readable. */
export function lastSeen(e: Recorded): number | undefined {
  for (const t of [e.lastTimestamp, e.firstTimestamp, e.metadata.creationTimestamp]) {
    const ms = typeof t === 'string' ? Date.parse(t) : Number.NaN
    if (Number.isFinite(ms)) return ms
  }
  return undefined
}

export function isExpired(e: Recorded, nowMs: number): boolean {
  const seen = lastSeen(e)
  return seen === undefined || nowMs - seen >= EVENT_TTL_MS
}

export function paceEvent(recorded: Recorded | undefined, message: string, nowMs: number): Pace {
  if (!recorded) return { kind: 'create' }
  if (isExpired(recorded, nowMs)) return { kind: 'restart' }
  const since = nowMs - (lastSeen(recorded) ?? nowMs)
  const count = (typeof recorded.count === 'number' && recorded.count > 0 ? recorded.count : 1) + 1
  if (recorded.message === message)
    return since >= EVENT_REPEAT_MS ? { kind: 'repeat', count } : { kind: 'keep' }
  if (since >= EVENT_MIN_INTERVAL_MS) return { kind: 'repeat', count }
  return { kind: 'wait', ms: EVENT_MIN_INTERVAL_MS - since }
}
