/**
 * The held idle fleet's figures from a fleet record: only requests started inside the window
 * count, per edge-hour; each agent's first answer after the change counts (earlier ones do not),
 * and the time to every answer is unknown while one agent has none; the answers are waited for
 * long enough to see one within the goal (1.5× the bound).
 */
import { describe, expect, it } from 'vitest'
import { emptyHeldFleetResult, type HeldFleetResult } from '../../bench/held-fleet-run.ts'
import {
  answerBoundMs,
  answerWaitMs,
  figures,
  type Measured,
  perAnswer,
} from '../../bench/held-idle-figures.ts'
import {
  heldGoals,
  heldSteadyReads,
  plainEdgeHour,
  TOKEN_REREADS_PER_EDGE_HOUR,
} from '../../bench/held-idle-report.ts'
import type { IdleFleet } from '../../bench/scale-idle.ts'

const HOUR = 3_600_000

const record = (over: Partial<HeldFleetResult> = {}): HeldFleetResult => ({
  ...emptyHeldFleetResult(2),
  ...over,
})

const measured: Measured = {
  agents: 2,
  holdSeconds: 300,
  w0: 1_000_000,
  w1: 1_000_000 + HOUR / 2,
  cpuMs: 400,
  cores: 2,
  reads: 30,
  writes: 10,
  readClasses: { 'GetItem kv:tokens': 20, 'GetItem mf': 10 },
  windowFailed: { holds: 1, beats: 2 },
  changeAt: 5_000_000,
  translateMs: 700,
  fullAnswerCpuMs: 2,
  fullAnswerHubCpuMs: 1.5,
  changeCpu: { hubMs: 30, storeMs: 10 },
  perHeldPoll: { hubRssBytes: 1, hubHeapBytes: 1, hubOpenFiles: 1, fleetOpenFiles: 1 },
  files: { hubBefore: 10, hubHeld: 12, limit: 100 },
}

describe('held idle figures', () => {
  it('counts the window only, per edge-hour', () => {
    const f = figures(
      record({
        // one before the window, three in it, one at its end (out)
        holdStarts: [999_999, 1_000_000, 1_200_000, 1_500_000, measured.w1],
        beatStarts: [1_000_001, 1_000_002, 2_000_000, 2_000_001, 2_000_002, 9_000_000],
      }),
      measured
    )
    // two agents over half an hour: one edge-hour
    expect(f.holdsPerEdgeHour).toBe(3)
    expect(f.beatsPerEdgeHour).toBe(5)
    expect(f.requestsPerEdgeHour).toBe(8)
    expect(f.cpuMsPerEdgeHour).toBe(400)
    expect(f.readsPerEdgeHour).toBe(30)
    // two edges over half an hour: one edge-hour
    expect(f.readsByClass).toEqual({ 'GetItem kv:tokens': 20, 'GetItem mf': 10 })
    expect(f.centerCpuFraction).toBeCloseTo(400 / (HOUR / 2) / 2)
  })

  it('takes each agent’s first answer after the change', () => {
    const at = measured.changeAt
    const f = figures(record({ answers: [[at - 5, at + 300, at + 900], [at + 1200]] }), measured)
    expect(f.change.answered).toBe(2)
    expect(f.change.allAnsweredMs).toBe(1200)
    expect(f.change.boundMs).toBe(2) // 2 ms × 2 agents ÷ 2 cores
    expect(f.change.fullAnswerHubCpuMs).toBe(1.5)
    // the change's CPU over its two held polls
    expect(f.change.cpuMsPerAnswer).toEqual({ hub: 15, store: 5 })
  })

  it('has no time to every answer while an agent has none', () => {
    const at = measured.changeAt
    const f = figures(record({ answers: [[at + 300], [at - 1]] }), measured)
    expect(f.change.answered).toBe(1)
    expect(f.change.allAnsweredMs).toBeNaN()
  })

  it('waits 300 s for the answers, or twice the bound when that is longer', () => {
    // 47.5 ms a full answer × 10,000 edges ÷ 2 cores: 237.5 s, of which the goal allows 356 s.
    const bound = answerBoundMs(47.5, 10_000, 2)
    expect(bound).toBe(237_500)
    expect(answerWaitMs(bound)).toBe(475_000)
    expect(answerWaitMs(answerBoundMs(2, 200, 2))).toBe(300_000)
  })
})

describe('held beside plain', () => {
  const fleet = {
    agents: 100,
    intervalMs: 15_000,
    readsPerPoll: 0.01,
    withHeartbeats: {
      periodMs: 60_000,
      centerCpuFraction: 0.05,
      requestsPerHeartbeat: 3,
      writesPerHeartbeat: 2,
    },
  } as IdleFleet

  it('prices a plain edge-hour by its schedule and the measured costs', () => {
    const p = plainEdgeHour(fleet, 2)
    expect(p.requests).toBe(240 + 60)
    expect(p.cpuMs).toBeCloseTo((0.05 * 2 * HOUR) / 100)
    // a token re-read per edge per trust (9 minutes on average): 6.67 an hour
    expect(TOKEN_REREADS_PER_EDGE_HOUR).toBeCloseTo(60 / 9)
    expect(p.reads).toBeCloseTo(0.01 * 240 + 1 * 60 + 60 / 9)
  })

  it('states each held figure as a share of plain', () => {
    const held = figures(
      record({ holdStarts: [1_000_001, 1_000_002], beatStarts: Array(28).fill(1_000_003) }),
      { ...measured, agents: 2, cpuMs: 3600 }
    )
    const goals = heldGoals({ fleet, held })
    expect(goals.heldIdleRequestsShare?.value).toBeCloseTo(30 / 300, 3)
    expect(goals.heldIdleRequestsShare?.target).toBe(0.25)
    expect(goals.heldIdleCpuRatio?.value).toBeCloseTo(3600 / 3600, 3)
    // the window's 20 token reads per edge-hour count at the tokens' rate, on both sides
    expect(heldSteadyReads(held)).toBeCloseTo(30 - 20 + 60 / 9)
    expect(goals.heldIdleReadsRatio?.value).toBeCloseTo((10 + 60 / 9) / (62.4 + 60 / 9), 3)
    expect(heldGoals({ fleet, held: null }).heldIdleRequestsShare?.value).toBeNull()
  })
})

describe('one full answer', () => {
  it('is the CPU over the answers less the fleet around them, never nothing', () => {
    // 300 answers over 30 s, 12 s of CPU, 0.1 ms of each ms the fleet's own: 30 ms each
    expect(perAnswer(12_000, 0.1, 30_000, 300)).toBeCloseTo(30)
    expect(perAnswer(12_000, 0, 30_000, 300)).toBeCloseTo(40)
    expect(perAnswer(1_000, 0.1, 30_000, 300)).toBe(0.01)
    expect(perAnswer(500, 0, 1000, 0)).toBe(500)
  })
})
