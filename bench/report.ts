/**
 * Turns the benchmark's results into a human-readable report (one table per phase, with the
 * hub/raw ratios, the fan-out figures from fan-out-report.ts and the edge figures from
 * edge-report.ts, held polls beside plain ones from edge-held-report.ts) and into one JSON object for machines, printed as the last line of stdout.
 */
import type { BenchOptions } from './args.ts'
import { renderHeld } from './edge-held-report.ts'
import { renderEdge } from './edge-report.ts'
import { edgeJson } from './edge-report-json.ts'
import type { EdgeResults } from './edge-types.ts'
import { type FairSharePair, fairShareJson, renderFairShare } from './fair-share-report.ts'
import { fanOutJson, renderFanOut } from './fan-out-report.ts'
import type { FanOutResults } from './fan-out-types.ts'
import type { HubCrudResults } from './hub-crud.ts'
import type { KindSummary } from './invocation-log.ts'
import type { LimitsResults } from './limits.ts'
import { limitsJson, renderLimits } from './limits-report.ts'
import type { LoadResult } from './load.ts'
import type { RawResults } from './raw-dynamo.ts'
import type { RequestCost } from './request-costs.ts'
import { ratio, round, type Summary } from './stats.ts'
import { type Cell, fmt, formatTable } from './table.ts'
import type { WatchLatency } from './watch-latency.ts'

export type BenchResults = {
  config: BenchOptions
  environment: { node: string; platform: string; cpus: number; cpuModel: string }
  raw: RawResults
  hub: HubCrudResults
  requests: RequestCost[]
  watch: WatchLatency[]
  /** null when the run skipped it (`--skip-fanout`). */
  fanOut: FanOutResults | null
  /** null when the run skipped it (`--skip-edge`). */
  edge: EdgeResults | null
  /** Per invocation kind over the whole run (Workers limits). */
  invocations: KindSummary[]
  /** null when the run skipped it (`--skip-limits`). */
  limits: LimitsResults | null
  /** null when the run skipped it (`--fair-watches 0`). */
  fairShare: FairSharePair | null
  durationMs: number
}

type Pair = { sequential: number; concurrent: number }

export type Ratios = {
  createVsPutItem: Pair
  getVsGetItem: Pair
  listAllVsQuery: Pair
  listLimitVsQuery: Pair
}

/** Hub ops/s divided by raw ops/s, for each hub operation and its raw counterpart. */
export function ratios(r: BenchResults): Ratios {
  return {
    createVsPutItem: {
      sequential: ratio(r.hub.createSequential.opsPerSec, r.raw.putSequential.opsPerSec),
      concurrent: ratio(r.hub.createConcurrent.opsPerSec, r.raw.putConcurrent.opsPerSec),
    },
    getVsGetItem: {
      sequential: ratio(r.hub.getSequential.opsPerSec, r.raw.getSequential.opsPerSec),
      concurrent: ratio(r.hub.getConcurrent.opsPerSec, r.raw.getConcurrent.opsPerSec),
    },
    listAllVsQuery: {
      sequential: ratio(r.hub.listAllSequential.opsPerSec, r.raw.queryAllSequential.opsPerSec),
      concurrent: ratio(r.hub.listAllConcurrent.opsPerSec, r.raw.queryAllConcurrent.opsPerSec),
    },
    listLimitVsQuery: {
      sequential: ratio(r.hub.listLimitSequential.opsPerSec, r.raw.queryLimitSequential.opsPerSec),
      concurrent: ratio(r.hub.listLimitConcurrent.opsPerSec, r.raw.queryLimitConcurrent.opsPerSec),
    },
  }
}

function loadRow(name: string, l: LoadResult, vs?: number): Cell[] {
  const row: Cell[] = [
    name,
    l.ops,
    l.concurrency,
    fmt(l.opsPerSec),
    fmt(l.latencyMs.p50, 2),
    fmt(l.latencyMs.p99, 2),
  ]
  if (vs !== undefined) row.push(Number.isFinite(vs) ? `${vs.toFixed(3)}x` : '-')
  return row
}

const LOAD_HEADERS = ['operation', 'ops', 'conc', 'ops/s', 'p50 ms', 'p99 ms']

function costTable(costs: RequestCost[]): string {
  const ops = [...new Set(costs.flatMap((c) => Object.keys(c.perOperation)))].sort()
  const rows = costs.map((c) => [
    c.operation,
    fmt(c.total, 2),
    ...ops.map((op) => fmt(c.perOperation[op] ?? 0, 2)),
  ])
  return formatTable(['hub operation', 'total', ...ops], rows)
}

function watchRows(w: WatchLatency): Cell[][] {
  const row = (label: string, s: Summary): Cell[] => [
    w.settleMs,
    label,
    s.count,
    fmt(s.p50),
    fmt(s.p90),
    fmt(s.p99),
    fmt(s.max),
  ]
  const rows = [row(`all (${w.missing} missing)`, w.latencyMs)]
  for (const [type, s] of Object.entries(w.byType)) rows.push(row(type, s))
  return rows
}

/** The report for people: a header and one table per phase. */
export function renderReport(r: BenchResults): string {
  const q = ratios(r)
  const { hub, raw } = r
  const n = r.config.objects
  const limit = `limit=${r.config.listLimit}`
  const env = r.environment
  const out = [
    `edgeplane hub benchmark: Node ${env.node} on ${env.platform}, ${env.cpus} CPUs (${env.cpuModel})`,
    'dynalite in a child process (in-memory); hub and agents over HTTP on 127.0.0.1 in this one',
    '',
    '1. Raw dynalite through @aws-sdk/client-dynamodb',
    formatTable(LOAD_HEADERS, [
      loadRow('PutItem', raw.putSequential),
      loadRow('PutItem', raw.putConcurrent),
      loadRow('GetItem', raw.getSequential),
      loadRow('GetItem', raw.getConcurrent),
      loadRow(`Query (${n} items)`, raw.queryAllSequential),
      loadRow(`Query (${n} items)`, raw.queryAllConcurrent),
      loadRow(`Query (${limit})`, raw.queryLimitSequential),
      loadRow(`Query (${limit})`, raw.queryLimitConcurrent),
    ]),
    '',
    '2. Hub over HTTP (ConfigMaps in root; hub/raw = hub ops/s / raw ops/s of PutItem, GetItem, Query)',
    formatTable(
      [...LOAD_HEADERS, 'hub/raw'],
      [
        loadRow('create (POST)', hub.createSequential, q.createVsPutItem.sequential),
        loadRow('create (POST)', hub.createConcurrent, q.createVsPutItem.concurrent),
        loadRow('get', hub.getSequential, q.getVsGetItem.sequential),
        loadRow('get', hub.getConcurrent, q.getVsGetItem.concurrent),
        loadRow(`list (${n} objects)`, hub.listAllSequential, q.listAllVsQuery.sequential),
        loadRow(`list (${n} objects)`, hub.listAllConcurrent, q.listAllVsQuery.concurrent),
        loadRow(`list (${limit})`, hub.listLimitSequential, q.listLimitVsQuery.sequential),
        loadRow(`list (${limit})`, hub.listLimitConcurrent, q.listLimitVsQuery.concurrent),
      ]
    ),
    '',
    '3. DynamoDB requests per hub request (average, by operation)',
    costTable(r.requests),
    '',
    '4. Watch delivery latency (write response -> event on the stream, ms)',
    formatTable(
      ['settle ms', 'events', 'n', 'p50', 'p90', 'p99', 'max'],
      r.watch.flatMap(watchRows)
    ),
    '',
    r.fanOut ? renderFanOut(r.fanOut, r.config.concurrency) : '5. Fan-out: skipped (--skip-fanout)',
    '',
    r.edge
      ? [renderEdge(r.edge), ...renderHeld(r.edge)].join('\n')
      : '6. Edge API and agents: skipped (--skip-edge)',
    '',
    renderLimits(r.invocations, r.limits),
    '',
    renderFairShare(r.fairShare),
    '',
    `finished in ${(r.durationMs / 1000).toFixed(1)} s`,
  ]
  return out.join('\n')
}

function loadJson(l: LoadResult) {
  return {
    ops: l.ops,
    concurrency: l.concurrency,
    elapsedMs: round(l.elapsedMs),
    opsPerSec: round(l.opsPerSec),
    latencyMs: summaryJson(l.latencyMs),
  }
}

function summaryJson(s: Summary) {
  return {
    count: s.count,
    min: round(s.min, 2),
    mean: round(s.mean, 2),
    p50: round(s.p50, 2),
    p90: round(s.p90, 2),
    p99: round(s.p99, 2),
    max: round(s.max, 2),
  }
}

function mapValues<T, U>(o: Record<string, T>, f: (v: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]))
}

/** Everything as one JSON-ready object (NaN becomes null). */
export function jsonSummary(r: BenchResults): Record<string, unknown> {
  const q = ratios(r)
  return {
    benchmark: 'edgeplane-hub',
    config: r.config,
    environment: r.environment,
    raw: mapValues(r.raw, loadJson),
    hub: mapValues(r.hub, loadJson),
    ratios: mapValues(q, (pair) => mapValues(pair, (x) => round(x, 4))),
    requests: r.requests.map((c) => ({
      operation: c.operation,
      samples: c.samples,
      total: round(c.total, 2),
      perOperation: mapValues(c.perOperation, (x) => round(x, 2)),
    })),
    watch: r.watch.map((w) => ({
      settleMs: w.settleMs,
      changes: w.changes,
      delivered: w.delivered,
      missing: w.missing,
      latencyMs: summaryJson(w.latencyMs),
      byType: mapValues(w.byType, summaryJson),
    })),
    fanOut: r.fanOut ? fanOutJson(r.fanOut) : null,
    edge: r.edge ? edgeJson(r.edge) : null,
    limits: limitsJson(r.invocations, r.limits),
    fairShare: fairShareJson(r.fairShare),
    durationMs: Math.round(r.durationMs),
  }
}
