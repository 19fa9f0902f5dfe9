import { describe, expect, it } from 'vitest'
import { edgeFigures, p99Target, readsWrites, renderEdge } from '../../bench/edge-report.ts'
import { edgeJson } from '../../bench/edge-report-json.ts'
import { cost, edge, run } from './edge-fixture.ts'

describe('readsWrites', () => {
  it('sums reads and writes by DynamoDB operation', () => {
    expect(readsWrites({ GetItem: 1, Query: 0.5, PutItem: 0.25, UpdateItem: 0.25 })).toEqual({
      reads: 1.5,
      writes: 0.5,
    })
    expect(readsWrites({})).toEqual({ reads: 0, writes: 0 })
  })
})

describe('edgeFigures', () => {
  it('judges the idle poll against 1 read and no write', () => {
    expect(edgeFigures(edge()).warm).toEqual({ reads: 1, writes: 0, met: true })
    const costly = edge({ idle: { ...edge().idle, warm: cost({ GetItem: 1, PutItem: 0.1 }) } })
    expect(edgeFigures(costly).warm.met).toBe(false)
    const twoReads = edge({ idle: { ...edge().idle, warm: cost({ GetItem: 2 }) } })
    expect(edgeFigures(twoReads).warm.met).toBe(false)
  })

  it('divides real by bare polls per second and by raw GetItem', () => {
    const q = edgeFigures(edge())
    expect(q.pollRatio).toBeCloseTo(0.2)
    expect(q.pollRatioMet).toBe(false)
    expect(q.vsRawGetItem).toBeCloseTo(0.8)
    expect(q.cold).toEqual({ reads: 3, writes: 0 })
    expect(edgeFigures(edge({ idle: { ...edge().idle, cold: null } })).cold).toBeNull()
  })

  it('judges each propagation run by its p99 against the interval + 1 s, and missing agents', () => {
    expect(p99Target(5000)).toBe(6000)
    const q = edgeFigures(edge())
    expect(q.runs.map((r) => r.p99Met)).toEqual([true, false])
    expect(q.runs[0]?.requestsPerPoll).toBeCloseTo(2)
    const late = edge({ propagation: [run(100, { missing: 0 })] })
    expect(edgeFigures(late).runs[0]?.p99Met).toBe(true)
  })
})

describe('renderEdge', () => {
  it('shows the idle figures, the ratios and the verdicts', () => {
    const text = renderEdge(edge())
    expect(text).toContain('6. Edge API and agents (poll interval 5000 ms)')
    expect(text).toContain('caches warm: 1.00 requests per poll (GetItem 1.00')
    expect(text).toContain('target 1 read, 0 writes: met')
    expect(text).toContain(
      'token cache cold (10 s token cache expired; mailbox-space cache 10 min): 3.00 requests per poll'
    )
    expect(text).toContain('real 800.0 vs bare hono 304 4000 = 0.20x')
    expect(text).toContain('MISSED')
    expect(text).toContain('0.80x raw GetItem/s')
  })

  it('has a row per agent count and per change', () => {
    const text = renderEdge(edge())
    expect(text).toMatch(/^\s+100\s+2\s+6\s+0\s+2500\s+5800\s+5800\s+5800\s+met$/m)
    expect(text).toMatch(/^\s+1000\s+2\s+2\s+1\s+3000\s+9000\s+9000\s+9000\s+MISSED$/m)
    expect(text).toMatch(/^\s+100\s+1 create\s+20\s+1500\s+3000\s+5000\s+5000\s+0\s+8\.0$/m)
    expect(text).toContain(
      '100 agents: 100 polls in 5.0 s (100 expected at the interval), 2.00 requests per poll'
    )
    expect(text).toContain('event-loop delay while timed p50 11 / p99 40 / max 120 ms')
  })

  it('says when the cold count was skipped', () => {
    expect(renderEdge(edge({ idle: { ...edge().idle, cold: null } }))).toContain(
      'token cache cold: skipped'
    )
  })
})

describe('edgeJson', () => {
  it('carries every figure, rounded, with the verdicts', () => {
    const j = edgeJson(edge()) as any
    expect(j.intervalMs).toBe(5000)
    expect(j.idle.warm).toMatchObject({ total: 1, reads: 1, writes: 0, samples: 10 })
    expect(j.idle.throughput).toMatchObject({ ratio: 0.2, vsRawGetItem: 0.8, rawGetPerSec: 1000 })
    expect(j.propagation[0]).toMatchObject({
      agents: 100,
      p99TargetMs: 6000,
      latencyMs: { count: 6, p50: 2500, p99: 5800 },
      idleWindow: { polls: 100, requestsPerPoll: 2 },
    })
    expect(j.propagation[0].changes[0]).toMatchObject({ kind: 'create', translateMs: 1500 })
    expect(j.targetsMet).toEqual({
      idleReads: true,
      idlePollRatio: false,
      propagationP99: [
        { agents: 100, met: true },
        { agents: 1000, met: false },
      ],
    })
    expect(JSON.parse(JSON.stringify(j))).toEqual(j)
  })

  it('writes NaN as null', () => {
    const j = edgeJson(
      edge({
        propagation: [run(10, { idleWindow: { ms: 0, polls: 0, requests: {}, requestsTotal: 0 } })],
      })
    ) as any
    expect(j.propagation[0].idleWindow.requestsPerPoll).toBeNull()
  })
})
