/**
 * The storm phase in the scale report (storm.ts): one table — the outage and the recovery after
 * it, requests and their outcomes in each part — and the lines around it (recovery p50/p99/max,
 * the peak request rate against the steady one, the center's liveness of every edge at the end);
 * and its goals: no edge left other than Heartbeating, and every agent back within the longest
 * wait the agent's backoff can make (8 poll intervals, backoff.ts) plus one interval. Pure.
 */
import type { Goal } from './goal.ts'
import type { StormResult, StormTotals } from './storm-summary.ts'
import { type Cell, formatTable } from './table.ts'

/** The agent's default backoff cap, in poll intervals (lib/edge-agent/backoff.ts). */
const CAP_INTERVALS = 8

export function stormGoals(
  s: StormResult | null
): Record<'stormEdgesNotHeartbeating' | 'stormRecoveryMaxSeconds', Goal> {
  const edges = s?.agents ?? null
  return {
    stormEdgesNotHeartbeating: {
      value: s ? s.agents - s.liveness.Heartbeating : null,
      target: 0,
      edges,
    },
    stormRecoveryMaxSeconds: {
      value: s ? (s.unrecovered > 0 ? null : s.recoverySeconds.max) : null,
      target: s ? ((CAP_INTERVALS + 1) * s.intervalMs) / 1000 : 0,
      edges,
    },
  }
}

const row = (part: string, t: StormTotals): Cell[] => [
  part,
  t.sent,
  t.s2xx + t.s3xx,
  t.s4xx,
  t.s5xx,
  t.retryAfter,
  t.refused,
  t.reset,
  t.timeout,
  t.other,
]

export function renderStorm(s: StormResult | null): string[] {
  if (!s) return []
  const l = s.liveness
  return [
    `storm, ${s.agents} agents polling every ${s.intervalMs} ms, the center stopped ${(s.outageMs / 1000).toFixed(1)} s:` +
      ` warm-up ${s.warmSeconds ?? '-'} s (${s.warmed} beat);` +
      ` recovery after the resume p50 ${s.recoverySeconds.p50 ?? '-'} s, p99 ${s.recoverySeconds.p99 ?? '-'} s, max ${s.recoverySeconds.max ?? '-'} s` +
      ` (${s.unrecovered} not back within ${s.capMs / 1000} s);` +
      ` requests/s steady ${s.steadyPerSecond ?? '-'}, peak ${s.peakPerSecond} at +${s.peakAtSeconds ?? '-'} s (${s.peakToSteady ?? '-'}x);` +
      ` ${s.staleOnTheWay} edges Stale on the way; liveness at the end: ${l.Heartbeating} Heartbeating, ${l.Stale} Stale, ${l.NeverSeen} NeverSeen;` +
      ` longest event-loop stall: fleet ${s.lagMaxMs.fleet ?? '-'} ms, hub ${s.lagMaxMs.hub ?? '-'} ms`,
    formatTable(
      ['part', 'sent', 'ok', '4xx', '5xx', 'retry-after', 'refused', 'reset', 'timeout', 'other'],
      [row('outage', s.outage), row('after', s.after)]
    ),
  ]
}
