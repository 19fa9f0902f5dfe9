/**
 * Held polls beside plain ones in the edge report (bench/edge-held-report.ts): requests and reads
 * per agent per hour from the idle window's counts, the held/plain share, the verdicts, the goals
 * at the largest agent count, the report lines and the JSON, and results without held runs.
 */
import { describe, expect, it } from 'vitest'
import {
  heldGoals,
  heldJson,
  heldPairs,
  modeFigures,
  renderHeld,
} from '../../bench/edge-held-report.ts'
import { summarize } from '../../bench/stats.ts'
import { edge, modeRun, run } from './edge-fixture.ts'

const both = (agents: number[]) =>
  edge({
    intervalMs: 15_000,
    propagation: agents.map((n) => modeRun(n, 'plain')),
    held: agents.map((n) => modeRun(n, 'held')),
  })

describe('modeFigures', () => {
  it('turns the idle window into requests and reads per agent per hour', () => {
    const plain = modeFigures(modeRun(100, 'plain'))
    // 125 requests by 100 agents in 15 s: 1.25 per agent per 15 s
    expect(plain.requestsPerAgentHour).toBeCloseTo(300)
    expect(plain.desiredPerAgentHour).toBeCloseTo(240)
    expect(plain.reportsPerAgentHour).toBeCloseTo(60)
    expect(plain.heldPerAgentHour).toBe(0)
    expect(plain.readsPerIdlePoll).toBeCloseTo(1)
    expect(plain.readsPerEdgeHour).toBeCloseTo(240)
    expect(plain.mode).toBe('plain')
    const held = modeFigures(modeRun(100, 'held'))
    expect(held.requestsPerAgentHour).toBeCloseTo((6 * 3_600_000) / 305_000)
    expect(held.heldPerAgentHour).toBeCloseTo(3_600_000 / 305_000)
    expect(held.readsPerIdlePoll).toBeCloseTo(1)
    expect(held.holdSeconds).toBe(300)
    expect(held.p99Ms).toBeGreaterThan(800)
  })

  it('reads a run from before held polls as plain, its requests as not counted', () => {
    const old = modeFigures(run(10))
    expect(old.mode).toBe('plain')
    expect(old.holdSeconds).toBeNull()
    expect(old.requestsPerAgentHour).toBeNaN()
    expect(old.readsPerIdlePoll).toBeNaN()
  })
})

describe('heldPairs and heldGoals', () => {
  it('pairs each agent count and judges the held run', () => {
    const pairs = heldPairs(both([10, 100]))
    expect(pairs.map((p) => p.agents)).toEqual([10, 100])
    expect(pairs[1]?.requestsShare).toBeCloseTo((6 * 3_600_000) / 305_000 / 300)
    expect(pairs[1]).toMatchObject({ p99Met: true, shareMet: true })
  })

  it('misses a slow or incomplete held run and a costly one', () => {
    const slow = modeRun(100, 'held')
    slow.latencyMs = summarize([300, 2500])
    const costly = modeRun(100, 'held')
    costly.idleRequests = {
      ...costly.idleRequests!,
      agentRequests: { desired: 0, held: 100, reports: 2500, failed: 0 },
    }
    const missing = { ...modeRun(100, 'held'), missing: 1 }
    const judge = (held: typeof slow) =>
      heldPairs(edge({ propagation: [modeRun(100, 'plain')], held: [held] }))[0]
    expect(judge(slow)?.p99Met).toBe(false)
    expect(judge(missing)?.p99Met).toBe(false)
    expect(judge(costly)).toMatchObject({ p99Met: true, shareMet: false })
  })

  it('gives the goals at the largest agent count', () => {
    const g = heldGoals(both([100, 10]))
    expect(g.heldPropagationP99Ms).toMatchObject({ target: 2000, edges: 100 })
    expect(g.heldPropagationP99Ms?.value).toBeLessThanOrEqual(1500)
    expect(g.heldIdleRequestsShare?.target).toBe(0.25)
    expect(g.heldIdleRequestsShare?.value).toBeCloseTo(0.236, 3)
  })

  it('gives null goals without held runs', () => {
    const g = heldGoals(edge({ held: [] }))
    expect(g.heldPropagationP99Ms).toEqual({ value: null, target: 2000, edges: null })
    expect(g.heldIdleRequestsShare).toEqual({ value: null, target: 0.25, edges: null })
    expect(heldPairs(edge())[0]).toMatchObject({ held: null, p99Met: false, shareMet: false })
  })
})

describe('renderHeld and heldJson', () => {
  it('shows a row per agent count and mode, the verdicts and the goals', () => {
    const text = renderHeld(both([100])).join('\n')
    expect(text).toMatch(
      /^\s+100\s+plain\s+0\s+7000\s+14000\s+14000\s+300\.0\s+240\.0 \/ 0\.0 \/ 60\.0\s+1\.00\s+240\.0$/m
    )
    expect(text).toMatch(
      /^\s+100\s+held 300 s\s+0\s+800\s+1500\s+1500\s+70\.8\s+0\.0 \/ 11\.8 \/ 59\.0\s+1\.00\s+11\.8$/m
    )
    expect(text).toContain('held p99 1500 ms (target ≤ 2000 ms, no agent missing: met)')
    expect(text).toContain('idle requests held/plain 0.236 (target ≤ 0.25: met)')
    expect(text).toMatch(/heldPropagationP99Ms\s+1500 \/ 2000 @ 100/)
    expect(text).toMatch(/heldIdleRequestsShare\s+0\.236 \/ 0\.25 @ 100/)
  })

  it('says when held polls were left out', () => {
    expect(renderHeld(edge())).toEqual(['  held polls: left out (--edge-hold-seconds 0)'])
  })

  it('has JSON rows per mode and the goals, NaN as null', () => {
    const j = heldJson(both([100])) as any
    expect(j.modes[0]).toMatchObject({
      agents: 100,
      plain: { mode: 'plain', idleRequestsPerAgentHour: { total: 300, reports: 60 } },
      held: { mode: 'held', holdSeconds: 300, storeReadsPerEdgeHour: 11.8 },
      requestsShare: 0.236,
      targetsMet: { heldP99: true, requestsShare: true },
    })
    expect(j.goals.heldPropagationP99Ms.value).toBe(1500)
    const old = heldJson(edge()) as any
    expect(old.modes[0].held).toBeNull()
    expect(old.modes[0].plain.idleRequestsPerAgentHour.total).toBeNull()
    expect(JSON.parse(JSON.stringify(j))).toEqual(j)
  })
})
