import { describe, expect, it } from 'vitest'
import { DEFAULT_OPTIONS } from '../../bench/args.ts'
import type { LoadResult } from '../../bench/load.ts'
import { type BenchResults, jsonSummary, ratios, renderReport } from '../../bench/report.ts'
import { summarize } from '../../bench/stats.ts'
import { edge } from './edge-fixture.ts'
import { fanOut } from './fan-out-fixture.ts'

function load(opsPerSec: number, concurrency = 1): LoadResult {
  return {
    ops: 100,
    concurrency,
    elapsedMs: 100_000 / opsPerSec,
    opsPerSec,
    latencyMs: summarize([1, 2, 3]),
  }
}

function results(): BenchResults {
  return {
    config: DEFAULT_OPTIONS,
    environment: { node: 'v22.0.0', platform: 'linux-x64', cpus: 2, cpuModel: 'test cpu' },
    raw: {
      putSequential: load(200),
      putConcurrent: load(400, 16),
      getSequential: load(250),
      getConcurrent: load(500, 16),
      queryAllSequential: load(50),
      queryAllConcurrent: load(60, 16),
      queryLimitSequential: load(100),
      queryLimitConcurrent: load(120, 16),
    },
    hub: {
      createSequential: load(20),
      createConcurrent: load(100, 16),
      getSequential: load(50),
      getConcurrent: load(Number.NaN, 16),
      listAllSequential: load(5),
      listAllConcurrent: load(6, 16),
      listLimitSequential: load(10),
      listLimitConcurrent: load(12, 16),
    },
    requests: [
      {
        operation: 'create (POST)',
        samples: 2,
        total: 7,
        perOperation: { GetItem: 3, PutItem: 4 },
      },
      { operation: 'get', samples: 2, total: 1, perOperation: { GetItem: 1 } },
    ],
    watch: [
      {
        settleMs: 0,
        changes: 3,
        delivered: 2,
        missing: 1,
        latencyMs: summarize([100, 200]),
        byType: { ADDED: summarize([100]), DELETED: summarize([200]) },
      },
    ],
    fanOut: null,
    edge: null,
    invocations: [],
    limits: null,
    fairShare: null,
    durationMs: 12_345,
  }
}

describe('ratios', () => {
  it('divides hub rates by their raw counterparts', () => {
    const q = ratios(results())
    expect(q.createVsPutItem.sequential).toBeCloseTo(0.1)
    expect(q.createVsPutItem.concurrent).toBeCloseTo(0.25)
    expect(q.getVsGetItem.sequential).toBeCloseTo(0.2)
    expect(q.getVsGetItem.concurrent).toBeNaN()
    expect(q.listAllVsQuery.sequential).toBeCloseTo(0.1)
    expect(q.listLimitVsQuery.concurrent).toBeCloseTo(0.1)
  })
})

describe('renderReport', () => {
  it('has a table per phase with the figures', () => {
    const text = renderReport(results())
    expect(text).toContain('1. Raw dynalite')
    expect(text).toContain('2. Hub over HTTP')
    expect(text).toContain('3. DynamoDB requests per hub request')
    expect(text).toContain('4. Watch delivery latency')
    expect(text).toMatch(/create \(POST\)\s+100\s+1\s+20\.0\s+2\.00\s+3\.00\s+0\.100x/)
    expect(text).toMatch(/create \(POST\)\s+7\.00\s+3\.00\s+4\.00/)
    expect(text).toMatch(/get\s+1\.00\s+1\.00\s+0\.00/)
    expect(text).toContain('all (1 missing)')
    expect(text).toContain('5. Fan-out: skipped (--skip-fanout)')
    expect(text).toContain('6. Edge API and agents: skipped (--skip-edge)')
    expect(text).toContain('finished in 12.3 s')
  })

  it('has the fan-out section when the run made one', () => {
    const text = renderReport({ ...results(), fanOut: fanOut() })
    expect(text).toContain('5. Fan-out: one EdgePlacement selecting 100 ConfigMaps')
    expect(text).toContain('(target < 10 s: met)')
    expect(text).not.toContain('Fan-out: skipped')
  })

  it('has the edge section when the run made one', () => {
    const text = renderReport({ ...results(), edge: edge() })
    expect(text).toContain('6. Edge API and agents (poll interval 5000 ms)')
    expect(text).not.toContain('--skip-edge)')
  })
})

describe('jsonSummary', () => {
  it('survives JSON with NaN as null', () => {
    const parsed = JSON.parse(JSON.stringify(jsonSummary(results())))
    expect(parsed.benchmark).toBe('edgeplane-hub')
    expect(parsed.config.objects).toBe(DEFAULT_OPTIONS.objects)
    expect(parsed.hub.getConcurrent.opsPerSec).toBeNull()
    expect(parsed.ratios.createVsPutItem).toEqual({ sequential: 0.1, concurrent: 0.25 })
    expect(parsed.ratios.getVsGetItem.concurrent).toBeNull()
    expect(parsed.requests[0]).toEqual({
      operation: 'create (POST)',
      samples: 2,
      total: 7,
      perOperation: { GetItem: 3, PutItem: 4 },
    })
    expect(parsed.watch[0].latencyMs.p50).toBe(100)
    expect(parsed.watch[0].byType.DELETED.max).toBe(200)
    expect(parsed.fanOut).toBeNull()
    expect(parsed.edge).toBeNull()
    expect(parsed.durationMs).toBe(12345)
  })

  it('has the fanOut section when the run made one', () => {
    const parsed = JSON.parse(JSON.stringify(jsonSummary({ ...results(), fanOut: fanOut() })))
    expect(parsed.fanOut.pairs).toBe(100_000)
    expect(parsed.fanOut.initial.requestsPerPair).toBe(0.06102)
  })

  it('has the edge section when the run made one', () => {
    const parsed = JSON.parse(JSON.stringify(jsonSummary({ ...results(), edge: edge() })))
    expect(parsed.edge.idle.throughput.ratio).toBe(0.2)
    expect(parsed.edge.propagation.map((p: { agents: number }) => p.agents)).toEqual([100, 1000])
  })
})
