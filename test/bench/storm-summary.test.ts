/**
 * The storm's figures (bench/storm-summary.ts, bench/storm-report.ts) from made-up per-second
 * counts: recovery measured from the resume, the steady rate before the stop against the peak
 * after the resume, outcomes split at the stop's and the resume's seconds, liveness by the
 * center's rule, and the goals that fail on an edge not Heartbeating or an agent never back.
 */
import { describe, expect, it } from 'vitest'
import { createSecondCounts } from '../../bench/storm-counts.ts'
import type { StormFleetRaw } from '../../bench/storm-fleet-run.ts'
import { renderStorm, stormGoals } from '../../bench/storm-report.ts'
import { livenessCounts, summarizeStorm } from '../../bench/storm-summary.ts'
import { STALE_AFTER_MS } from '../../lib/summarize/liveness.ts'

const T0 = 1_800_000_000_000
const stopAt = T0 + 40_500
const resumedAt = T0 + 100_200

function raw(recoveredAt: (number | null)[]): StormFleetRaw {
  const c = createSecondCounts()
  // steady: 10 polls a second for 40 s
  for (let s = 0; s < 40; s++) for (let k = 0; k < 10; k++) c.count(T0 + s * 1000 + k, 'polls')
  // the stop's second on: refused, fewer as agents back off
  for (let s = 40; s < 100; s++) {
    c.count(T0 + s * 1000, 'polls')
    c.count(T0 + s * 1000, 'refused')
  }
  // after: a burst of 35 at +2 s, some answered 503 with Retry-After
  for (let k = 0; k < 35; k++) c.count(T0 + 102_000 + k, 'polls')
  for (let k = 0; k < 5; k++) {
    c.count(T0 + 102_000, 's5xx')
    c.count(T0 + 102_000, 'retryAfter')
  }
  c.count(T0 + 103_000, 'beats')
  c.count(T0 + 103_000, 's2xx')
  return {
    agents: recoveredAt.length,
    startedAt: T0,
    warmAt: T0 + 30_000,
    warmed: recoveredAt.length,
    seconds: c.rows(),
    recoveredAt,
    longestBeatGapMs: recoveredAt.map((_, i) => (i === 0 ? 200_000 : 60_000)),
  }
}

const times = { stopAt, resumedAt, intervalMs: 10_000, outageMs: 59_700, capMs: 600_000 }
const live = { Heartbeating: 3, Stale: 0, NeverSeen: 0 }

describe('summarizeStorm', () => {
  it('measures recovery from the resume and the peak against the steady rate', () => {
    const s = summarizeStorm(
      raw([resumedAt + 1000, resumedAt + 3000, resumedAt + 90_000]),
      times,
      live
    )
    expect(s.recovered).toBe(3)
    expect(s.recoverySeconds).toEqual({ p50: 3, p99: 90, max: 90 })
    expect(s.steadyPerSecond).toBe(10)
    expect(s.peakPerSecond).toBe(35)
    expect(s.peakAtSeconds).toBe(2)
    expect(s.peakToSteady).toBe(3.5)
    expect(s.warmSeconds).toBe(30)
    // 200 s between two heartbeats is past the 3 min threshold: that edge was Stale a while
    expect(s.staleOnTheWay).toBe(1)
    expect(s.outage.refused).toBe(60)
    expect(s.outage.sent).toBe(60)
    expect(s.after).toMatchObject({ sent: 36, s5xx: 5, retryAfter: 5, s2xx: 1, refused: 0 })
    expect(s.perSecond.at(-1)).toEqual({ t: 3, sent: 1, ok: 1, failed: 0 })
    expect(stormGoals(s)).toEqual({
      stormEdgesNotHeartbeating: { value: 0, target: 0, edges: 3 },
      stormRecoveryMaxSeconds: { value: 90, target: 90, edges: 3 },
    })
  })

  it('counts agents never back, and the goals then have no recovery figure', () => {
    const s = summarizeStorm(raw([resumedAt + 1000, null]), times, {
      Heartbeating: 1,
      Stale: 1,
      NeverSeen: 0,
    })
    expect(s.unrecovered).toBe(1)
    expect(stormGoals(s).stormRecoveryMaxSeconds.value).toBeNull()
    expect(stormGoals(s).stormEdgesNotHeartbeating.value).toBe(1)
    const text = renderStorm(s).join('\n')
    expect(text).toContain('(1 not back within 600 s)')
    expect(text).toContain('1 Heartbeating, 1 Stale, 0 NeverSeen')
    expect(text).toMatch(/outage\s+60\s+0\s+0\s+0\s+0\s+60/)
  })

  it('renders nothing and null goals when the phase was left out', () => {
    expect(renderStorm(null)).toEqual([])
    expect(stormGoals(null).stormEdgesNotHeartbeating.value).toBeNull()
  })
})

describe('livenessCounts', () => {
  it('takes the later of the lease and the status heartbeat, by the staleness threshold', () => {
    const now = T0
    const st = (at?: number) => ({
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'SyncTarget',
      metadata: { name: 'x' },
      ...(at ? { status: { lastSyncerHeartbeatTime: new Date(at).toISOString() } } : {}),
    })
    const counts = livenessCounts(
      [
        { st: st(now - STALE_AFTER_MS - 1000), leaseRenewedAt: now - 5000 },
        { st: st(now - STALE_AFTER_MS - 1000), leaseRenewedAt: undefined },
        { st: st(), leaseRenewedAt: undefined },
        { st: st(now - 1000), leaseRenewedAt: undefined },
      ],
      now
    )
    expect(counts).toEqual({ Heartbeating: 2, Stale: 1, NeverSeen: 1 })
  })
})
