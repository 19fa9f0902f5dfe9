/**
 * The scale report (bench/scale-report.ts): the goals map reads each figure at the largest size,
 * names the edge count it was measured at, gives null for parts left out, and the npm start rows
 * have their own targets; the JSON line keeps every row.
 */
import { describe, expect, it } from 'vitest'
import type { ScaleResults } from '../../bench/scale.ts'
import {
  npmStartGoals,
  operationCosts,
  renderScale,
  scaleGoals,
  scaleJson,
} from '../../bench/scale-report.ts'
import { summarize } from '../../bench/stats.ts'
import { edge, modeRun } from './edge-fixture.ts'
import { fanOut, phase } from './fan-out-fixture.ts'

const GOAL_KEYS = [
  'fanoutSeconds',
  'overrunsInWrites',
  'changeSeconds',
  'requestsPerChangedMailbox',
  'propagationP99Ms',
  'pollIntervalMs',
  'heldPropagationP99Ms',
  'idleStoreReadsPerPoll',
  'idleRatioToBare',
  'registerSeconds',
  'centerCpuIdleFraction',
  'rolloutPromotionMaxSeconds',
  'rolloutIdleReadsPerPollAdded',
  'heldIdleRequestsShare',
  'heldIdleCpuRatio',
  'heldIdleReadsRatio',
  'heldChangeToBound',
  'npmStartHeldPropagationP99Ms',
  'npmStartPlainPropagationP99Ms',
  'stormEdgesNotHeartbeating',
  'stormRecoveryMaxSeconds',
]

const small = fanOut({ targets: 1000 })
const large = fanOut({
  targets: 10_000,
  setup: {
    createMs: 50_000,
    mailboxMs: 30_000,
    translateMs: 1,
    requests: { objects: 70_000, mailboxes: 130_000, translate: 12_000 },
  },
  initial: phase({ completeMs: 12_345, requestsTotal: 20_000 }),
  change: phase({ completeMs: 4_000, requestsTotal: 11_000, cpuMs: 25_000 }),
})
const timed = (ms: number) => ({
  allMs: ms,
  p50Ms: ms / 2,
  runs: {},
  cpuMs: { worker: ms * 2, stack: ms, relay: 0 },
})

const full: ScaleResults = {
  rollout: null,
  storm: null,
  rows: [small, large],
  idle: {
    held: null,
    fleet: {
      agents: 10_000,
      intervalMs: 15_000,
      polls: 30_000,
      failed: 0,
      skipped: 3,
      readsPerPoll: 0.01234,
      writesPerPoll: 0,
      centerCpuFraction: 0.2,
      hubCpuFraction: 0.15,
      cpuMsPerPoll: 0.4,
      hubCpuMsPerPoll: 0.3,
      bytesPerPoll: { request: 300.4, response: 150.6 },
      pollLatencyMs: summarize([1, 2, 3]),
      withHeartbeats: {
        periodMs: 60_000,
        heartbeats: 7_500,
        failed: 0,
        skipped: 0,
        failures: {},
        centerCpuFraction: 0.3,
        hubCpuFraction: 0.22,
        requestsPerHeartbeat: 4.21,
        writesPerHeartbeat: 3.04,
        cpuMsPerHeartbeat: 2.345,
        latencyMs: summarize([2, 4, 6]),
        readsByClass: { 'GetItem kv:tokens': 0.5 },
        firstBeat: {
          heartbeats: 7_400,
          failed: 2,
          skipped: 100,
          failures: { '503 ServiceUnavailable': 1, 'fetch failed': 1 },
          requestsPerHeartbeat: 7.123,
          writesPerHeartbeat: 4.26,
          cpuMsPerHeartbeat: 9.8,
        },
      },
    },
    answerBytes: { identity: 120_000, gzip: 9_000 },
    bare: {
      mailboxes: 100,
      warm: { operation: 'x', samples: 1, total: 0, perOperation: {} },
      cold: null,
      throughput: {
        rounds: 3,
        concurrency: 16,
        real: { ops: 1, elapsedMs: 1, opsPerSec: 600, p50Ms: 1, p99Ms: 2 },
        bare: { ops: 1, elapsedMs: 1, opsPerSec: 1000, p50Ms: 1, p99Ms: 2 },
        roundRatios: [0.6],
      },
    },
  },
  propagation: null,
  npmStart: {
    edges: 1000,
    objects: 20,
    register: { ...timed(25_000), writesMs: 20_000 },
    place: timed(9_000),
    change: timed(6_000),
    dashboard: [{ view: 'matrix, first 100 edges', p50Ms: 41.6, maxMs: 90.2, bytes: 30_720 }],
  },
  npmStartEdges: null,
  budgets: [
    {
      edges: 1000,
      kinds: [kindOf('hook:translate', 1, 0, 2)],
      deferred: { translate: 5 },
      unfinished: [],
      summarize: { calls: 6, pages: 5, bound: 8, elapsedMs: 12_300 },
    },
    {
      edges: 10_000,
      kinds: [
        kindOf('hook:translate', 3, 1, 7),
        kindOf('hook:summarize', 0, 0, 4),
        kindOf('api', 0, 0, 0),
      ],
      deferred: { translate: 12, summarize: 3 },
      unfinished: ['summarize'],
    },
  ],
}

function kindOf(kind: string, exceeded: number, overInWrites: number, refused: number) {
  const spread = { max: 0, p50: 0, p99: 0 }
  return {
    kind,
    invocations: 10,
    budget: 1000,
    subrequests: spread,
    cpuMs: null,
    wallMs: { p50: 0, p99: 0 },
    maxInFlight: 1,
    exceeded,
    overInWrites,
    refused,
  }
}

describe('scale budgets', () => {
  it('prints each size and kind, and counts the overruns that wrote at the largest size', () => {
    const text = renderScale(full, 15_000)
    expect(text).toContain('budgets at 1000 edges')
    expect(text).toMatch(
      /hook:summarize\s+10 runs, over 0 \(in writes 0\), refused 4, 3 keys deferred/
    )
    expect(text).toMatch(/hook:translate\s+10 runs, over 1 \(in writes 0\), refused 2, 5 keys/)
    expect(text).toContain('summarize: its key was deferred again and again and never ran')
    expect(text).toContain('summarize of the placement: 6 invocations (5 pages; at most 8), 12.3 s')
    // the API is no hook: no keys to defer
    expect(text).toMatch(/api\s+10 runs, over 0 \(in writes 0\), refused 0\n/)
    expect(scaleGoals(full, 15_000).overrunsInWrites).toEqual({
      value: 1,
      target: 0,
      edges: 10_000,
    })
    expect(scaleGoals({ ...full, budgets: [] }, 15_000).overrunsInWrites?.value).toBeNull()
  })
})

describe('scale goals', () => {
  it('reads every figure at the largest size, with its target and edge count', () => {
    const g = scaleGoals(full, 15_000)
    expect(Object.keys(g)).toEqual(GOAL_KEYS)
    expect(g.fanoutSeconds).toEqual({ value: 12.35, target: 10, edges: 10_000 })
    expect(g.changeSeconds).toEqual({ value: 4, target: 5, edges: 10_000 })
    expect(g.requestsPerChangedMailbox).toEqual({ value: 2, target: 1.2, edges: 10_000 })
    expect(g.registerSeconds).toEqual({ value: 80, target: 60, edges: 10_000 })
    expect(g.idleStoreReadsPerPoll).toEqual({ value: 0.0123, target: 0.05, edges: 10_000 })
    expect(g.idleRatioToBare).toEqual({ value: 0.6, target: 0.5, edges: 10_000 })
    // measured with every idle agent's heartbeat, not with the polls alone (0.2)
    expect(g.centerCpuIdleFraction).toEqual({ value: 0.3, target: 0.5, edges: 10_000 })
    // Left out: null values, never a made-up figure.
    expect(g.propagationP99Ms).toEqual({ value: null, target: 18_500, edges: null })
    expect(g.heldIdleRequestsShare).toEqual({ value: null, target: 0.25, edges: null })
  })

  it('reads the held propagation run, and shows it beside the plain one', () => {
    const plain = modeRun(10, 'plain')
    const held = modeRun(10, 'held')
    held.latencyMs = summarize([400, 900, 1800])
    const s = { ...full, propagation: edge({ propagation: [plain], held: [held] }) }
    const g = scaleGoals(s, 15_000)
    expect(g.heldPropagationP99Ms).toEqual({ value: 1800, target: 2000, edges: 10 })
    expect(g.propagationP99Ms?.value).toBe(Math.round(plain.latencyMs.p99))
    const text = renderScale(s, 15_000)
    expect(text).toContain('propagation, 10 agents polling every 15000 ms: p50')
    expect(text).toContain(
      'propagation, 10 agents holding 300 s polls (interval 15000 ms): p50 900 ms, p99 1800 ms, missing 0'
    )
    expect(scaleGoals(full, 15_000).heldPropagationP99Ms).toEqual({
      value: null,
      target: 2000,
      edges: null,
    })
  })

  it('gives the npm start rows their own targets, and the JSON line every row', () => {
    expect(npmStartGoals(full)).toEqual({
      registerSeconds: { value: 25, target: 30, edges: 1000 },
      fanoutSeconds: { value: 9, target: 10, edges: 1000 },
      changeSeconds: { value: 6, target: 5, edges: 1000 },
    })
    expect(npmStartGoals({ ...full, npmStart: null })).toBeNull()
    const json = scaleJson(full, 15_000, 1234.4)
    expect(json.rows.map((r) => r.edges)).toEqual([1000, 10_000])
    expect(json.goals).toEqual(scaleGoals(full, 15_000))
    expect(renderScale(full, 15_000)).toContain('fanoutSeconds')
    expect(renderScale(full, 15_000)).toContain(
      'store requests: objects 7, mailbox 13, first translate 1.2'
    )
    // CPU per part and edge, the busiest first, parts that spent nothing left out
    expect(renderScale(full, 15_000)).toContain('CPU worker 50, stack 25 ms per edge')
    expect(json.npmStartCpuMs?.register).toEqual({ worker: 50_000, stack: 25_000, relay: 0 })
    expect(renderScale(full, 15_000)).toMatch(
      /matrix, first 100 edges +p50 42 ms, slowest 90 ms, 30 KiB/
    )
    expect(json.npmStartDashboard).toEqual(full.npmStart?.dashboard)
  })

  it('derives the per-operation costs from the largest row and the idle fleet', () => {
    const c = operationCosts(full)
    expect(c).toEqual({
      edges: 10_000,
      changedMailbox: { storeRequests: 1.1, cpuMs: 2.5, storeCpuMs: 0.4 },
      placedMailbox: { storeRequests: 2, cpuMs: 0.9, storeCpuMs: 0.4, objects: 100 },
      registerMsPerEdge: 8,
      registerRequestsPerEdge: { objects: 7, mailbox: 13, firstTranslate: 1.2 },
      idlePoll: {
        storeReads: 0.0123,
        storeWrites: 0,
        cpuMs: 0.4,
        hubCpuMs: 0.3,
        requestBytes: 300,
        responseBytes: 151,
      },
      heartbeat: {
        storeRequests: 4.21,
        storeWrites: 3.04,
        cpuMs: 2.345,
        first: { storeRequests: 7.12, storeWrites: 4.26, cpuMs: 9.8 },
      },
      desiredAnswerBytes: { identity: 120_000, gzip: 9_000 },
      rollout: null,
    })
    expect(scaleJson(full, 15_000, 1).costs).toEqual(c)
    expect(renderScale(full, 15_000)).toContain(
      'idle poll        0.0123 reads, 0 writes, 0.4 ms CPU (hub 0.3)'
    )
    expect(renderScale(full, 15_000)).toContain(
      "heartbeat        4.21 store requests (3.04 writes), 2.345 ms CPU; an agent's first 7.12 (4.26 writes), 9.8 ms"
    )
    expect(renderScale(full, 15_000)).toContain(
      'with a heartbeat per agent every 60000 ms (7500 sent, 0 failed; 0 not sent, their agent still waiting): center CPU 30 % (hub 22 %)'
    )
    expect(renderScale(full, 15_000)).toContain(
      '30000 polls (0 failed, 3 not sent, their agent still waiting)'
    )
    expect(renderScale(full, 15_000)).toContain(
      "an agent's first heartbeat (7400 sent, 2 failed: 1 × 503 ServiceUnavailable, 1 × fetch failed; 100 not sent, their agent still waiting): 7.12 store requests (4.26 writes) and 9.8 ms CPU"
    )
    expect(renderScale(full, 15_000)).toContain(
      'changed mailbox  1.1 store requests, 2.5 + 0.4 ms CPU'
    )
    const bare = operationCosts({ ...full, rows: [], idle: null })
    expect(bare.changedMailbox).toEqual({ storeRequests: null, cpuMs: null, storeCpuMs: null })
    expect(bare.idlePoll).toBeNull()
  })
})
