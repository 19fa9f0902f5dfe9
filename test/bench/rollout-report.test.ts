/**
 * The rollout phase's report (bench/rollout-report.ts): the promotion's p50 and max over the waves
 * against the 5 s target, store requests and CPU per promoted mailbox over every wave, and what
 * the Rollout adds to an idle fleet as difference and ratio; no phase run renders nothing and
 * leaves the goals empty.
 */
import { describe, expect, it } from 'vitest'
import { compared, renderRollout, rolloutCosts, rolloutGoals } from '../../bench/rollout-report.ts'
import type { IdleSide, RolloutResults, WavePromotion } from '../../bench/rollout-types.ts'

const wave = (name: string, promotionMs: number, requestsTotal: number): WavePromotion => ({
  wave: name,
  mailboxes: 100,
  woken: 100,
  promotionMs,
  rolloutMs: 200,
  rounds: 1,
  requests: { BatchGetItem: requestsTotal },
  requestsTotal,
  rolloutRequests: 10,
  cpuMs: 300,
  storeCpuMs: 100,
  translateRuns: 100,
  unchangedRuns: 0,
})

const side = (over: Partial<IdleSide>): IdleSide => ({
  polls: 1000,
  failed: 0,
  readsPerPoll: 0.01,
  writesPerPoll: 0,
  cpuMsPerPoll: 0.5,
  centerCpuFraction: 0.2,
  summarizeRequests: 10,
  translateRequests: 100,
  ...over,
})

const results: RolloutResults = {
  edges: 400,
  objects: 5,
  waves: 4,
  setupMs: { label: 1000, adopt: 2000 },
  cutWaitMs: 6000,
  promotions: [
    wave('w0', 1000, 50),
    wave('w1', 3000, 70),
    wave('w2', 2000, 60),
    wave('w3', 8000, 60),
  ],
  idle: { without: side({}), with: side({ translateRequests: 150, cpuMsPerPoll: 0.6 }) },
}

describe('the rollout report', () => {
  it('states the promotion against its target and the cost per promoted mailbox', () => {
    const c = rolloutCosts(results)
    expect(c?.promotionSeconds).toEqual({ p50: 2, max: 8 })
    expect(c?.promotedMailbox).toEqual({ storeRequests: 0.6, cpuMs: 3, storeCpuMs: 1 })
    expect(rolloutGoals(results).rolloutPromotionMaxSeconds).toEqual({
      value: 8,
      target: 5,
      edges: 400,
    })
  })

  it('compares the idle fleet with and without the Rollout', () => {
    const a = rolloutCosts(results)?.idleAdded
    expect(a?.readsPerPoll).toEqual({ without: 0.01, with: 0.01, added: 0, ratio: 1 })
    expect(a?.translateRequests).toEqual({ without: 100, with: 150, added: 50, ratio: 1.5 })
    expect(rolloutGoals(results).rolloutIdleReadsPerPollAdded?.value).toBe(0)
    expect(compared(0, 0)).toEqual({ without: 0, with: 0, added: 0, ratio: 1 })
    const text = renderRollout(results).join('\n')
    expect(text).toContain('promotion p50 2 s, max 8 s (target 5 s)')
    expect(text).toContain('translate pass 100 → 150 requests (added 50, ×1.5)')
  })

  it('without a phase run: no lines, goals without values', () => {
    expect(renderRollout(null)).toEqual([])
    expect(rolloutCosts(null)).toBeNull()
    expect(rolloutGoals(null).rolloutPromotionMaxSeconds?.value).toBeNull()
  })
})
