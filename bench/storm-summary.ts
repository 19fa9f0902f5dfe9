/**
 * The storm phase's figures from the fleet's raw counts (storm-fleet-run.ts) and the times the
 * parent stopped and resumed the center: per-agent recovery from the resume (p50, p99, max, and
 * how many never recovered before the cap), the steady request rate before the stop (the mean of
 * the last STEADY_SECONDS whole seconds) against the peak after the resume, and the requests and
 * their outcomes during the outage and after it (by whole seconds: the stop's second counts as
 * outage, the resume's as after). `livenessCounts` sorts SyncTargets by the center's own rule
 * (lib/summarize/liveness.ts: the later of the lease and the status heartbeat); `staleOnTheWay`
 * counts the agents silent that long at some point (Stale for a while is right; left so is not). Pure.
 */
import type { KubeObject } from '../lib/kube/types.ts'
import {
  type EdgeLiveness,
  type Liveness,
  lastHeard,
  livenessAt,
  STALE_AFTER_MS,
} from '../lib/summarize/liveness.ts'
import { round, summarize } from './stats.ts'
import { type CountKey, emptyRow, type SecondRow, sentIn } from './storm-counts.ts'
import type { StormFleetRaw } from './storm-fleet-run.ts'

export const STEADY_SECONDS = 30

export type LivenessCounts = Record<EdgeLiveness, number>

export type StormTotals = Omit<SecondRow, 'at'> & { sent: number }

export type StormResult = {
  agents: number
  intervalMs: number
  outageMs: number
  capMs: number
  /** Start of the fleet to every agent's first accepted heartbeat, s; and how many had one. */
  warmSeconds: number | null
  warmed: number
  recovered: number
  unrecovered: number
  /** Resume to each agent's first successful pass (poll and due heartbeat), s. */
  recoverySeconds: { p50: number | null; p99: number | null; max: number | null }
  steadyPerSecond: number | null
  peakPerSecond: number
  /** When the peak came, seconds after the resume. */
  peakAtSeconds: number | null
  peakToSteady: number | null
  outage: StormTotals
  after: StormTotals
  /** Agents whose heartbeats were STALE_AFTER_MS or more apart: the center saw them Stale a while. */
  staleOnTheWay: number
  /** The center's liveness of every SyncTarget once the run ended. */
  liveness: LivenessCounts
  /**
   * The longest event-loop stall, ms: of the fleet's process over its run, and of the hub's from
   * the resume on (null when not measured). A stalled fleet sends and reads nothing meanwhile.
   */
  lagMaxMs: { fleet: number | null; hub: number | null }
  /** Requests sent per second from STEADY_SECONDS before the stop on, by offset from the resume. */
  perSecond: { t: number; sent: number; ok: number; failed: number }[]
}

function totals(rows: readonly SecondRow[]): StormTotals {
  const sum = emptyRow(0) as SecondRow
  for (const r of rows)
    for (const k of Object.keys(r) as (CountKey | 'at')[]) if (k !== 'at') sum[k] += r[k]
  const { at: _, ...rest } = sum
  return { ...rest, sent: sentIn(sum) }
}

const secs = (ms: number | undefined) => (ms === undefined ? null : round(ms / 1000, 1))

export function summarizeStorm(
  raw: StormFleetRaw,
  t: { stopAt: number; resumedAt: number; intervalMs: number; outageMs: number; capMs: number },
  liveness: LivenessCounts,
  lagMaxMs: StormResult['lagMaxMs'] = { fleet: null, hub: null }
): StormResult {
  const second = (ms: number) => Math.floor(ms / 1000) * 1000
  const stopSec = second(t.stopAt)
  const resumeSec = second(t.resumedAt)
  const before = raw.seconds.filter((r) => r.at < stopSec).slice(-STEADY_SECONDS)
  const outage = raw.seconds.filter((r) => r.at >= stopSec && r.at < resumeSec)
  const after = raw.seconds.filter((r) => r.at >= resumeSec)
  const times = raw.recoveredAt.filter((x): x is number => x !== null)
  const recovery = summarize(times.map((x) => Math.max(0, x - t.resumedAt)))
  const steady = before.length > 0 ? before.reduce((s, r) => s + sentIn(r), 0) / before.length : 0
  let peak: SecondRow | undefined
  for (const r of after) if (!peak || sentIn(r) > sentIn(peak)) peak = r
  const peakPerSecond = peak ? sentIn(peak) : 0
  const failedIn = (r: SecondRow) => r.refused + r.reset + r.timeout + r.other + r.s4xx + r.s5xx
  return {
    agents: raw.agents,
    intervalMs: t.intervalMs,
    outageMs: t.outageMs,
    capMs: t.capMs,
    warmSeconds: raw.warmAt ? secs(raw.warmAt - raw.startedAt) : null,
    warmed: raw.warmed,
    recovered: times.length,
    unrecovered: raw.agents - times.length,
    recoverySeconds: {
      p50: secs(times.length ? recovery.p50 : undefined),
      p99: secs(times.length ? recovery.p99 : undefined),
      max: secs(times.length ? recovery.max : undefined),
    },
    steadyPerSecond: before.length > 0 ? round(steady, 1) : null,
    peakPerSecond,
    peakAtSeconds: peak ? round((peak.at - resumeSec) / 1000, 0) : null,
    peakToSteady: steady > 0 ? round(peakPerSecond / steady, 2) : null,
    outage: totals(outage),
    after: totals(after),
    staleOnTheWay: raw.longestBeatGapMs.filter((g) => g >= STALE_AFTER_MS).length,
    liveness,
    lagMaxMs,
    perSecond: [...before, ...outage, ...after].map((r) => ({
      t: (r.at - resumeSec) / 1000,
      sent: sentIn(r),
      ok: r.s2xx + r.s3xx,
      failed: failedIn(r),
    })),
  }
}

/** Each SyncTarget's liveness at `nowMs` by `rule`, given its space's leases (by uid). */
export function livenessCounts(
  syncTargets: readonly { st: KubeObject; leaseRenewedAt: number | undefined }[],
  nowMs: number,
  rule?: Liveness
): LivenessCounts {
  const out: LivenessCounts = { Heartbeating: 0, Stale: 0, NeverSeen: 0 }
  for (const { st, leaseRenewedAt } of syncTargets)
    out[livenessAt(lastHeard(st, leaseRenewedAt), nowMs, rule)]++
  return out
}
