/**
 * The `edge` section of the benchmark's final JSON line: every figure of the edge phase rounded
 * (NaN as null), the derived ones and the verdicts of edge-report.ts, and held polls beside plain
 * ones with their goals (edge-held-report.ts: `modes`, `goals`). Pure.
 */
import { heldJson } from './edge-held-report.ts'
import { edgeFigures, p99Target, readsWrites } from './edge-report.ts'
import type { EdgeResults } from './edge-types.ts'
import type { RequestCost } from './request-costs.ts'
import { round, type Summary } from './stats.ts'

const summaryJson = (s: Summary) => ({
  count: s.count,
  p50: round(s.p50),
  p90: round(s.p90),
  p99: round(s.p99),
  max: round(s.max),
})

const costJson = (c: RequestCost) => ({
  samples: c.samples,
  total: round(c.total, 3),
  perOperation: Object.fromEntries(
    Object.entries(c.perOperation).map(([k, v]) => [k, round(v, 3)])
  ),
  ...readsWrites(c.perOperation),
})

/** The `edge` section of the JSON summary (NaN as null). */
export function edgeJson(e: EdgeResults): Record<string, unknown> {
  const q = edgeFigures(e)
  const t = e.idle.throughput
  const rate = (r: typeof t.real) => ({
    ops: r.ops,
    elapsedMs: round(r.elapsedMs),
    opsPerSec: round(r.opsPerSec),
    p50Ms: round(r.p50Ms, 2),
    p99Ms: round(r.p99Ms, 2),
  })
  return {
    intervalMs: e.intervalMs,
    idle: {
      mailboxes: e.idle.mailboxes,
      warm: costJson(e.idle.warm),
      cold: e.idle.cold ? costJson(e.idle.cold) : null,
      throughput: {
        rounds: t.rounds,
        concurrency: t.concurrency,
        real: rate(t.real),
        bare: rate(t.bare),
        ratio: round(q.pollRatio, 3),
        vsRawGetItem: round(q.vsRawGetItem, 3),
        rawGetPerSec: round(e.rawGetPerSec),
        roundRatios: t.roundRatios.map((x) => round(x, 3)),
      },
    },
    propagation: e.propagation.map((r, i) => ({
      agents: r.agents,
      intervalMs: r.intervalMs,
      latencyMs: summaryJson(r.latencyMs),
      missing: r.missing,
      p99TargetMs: p99Target(r.intervalMs),
      changes: r.changes.map((c) => ({
        kind: c.kind,
        writeMs: round(c.writeMs),
        translateMs: round(c.translateMs),
        latencyMs: summaryJson(c.latencyMs),
        missing: c.missing,
        requests: c.requests,
        requestsTotal: c.requestsTotal,
      })),
      idleWindow: {
        ...r.idleWindow,
        ms: round(r.idleWindow.ms),
        requestsPerPoll: round(q.runs[i]?.requestsPerPoll ?? Number.NaN, 3),
      },
      setupMs: Object.fromEntries(Object.entries(r.setupMs).map(([k, v]) => [k, round(v)])),
      polls: r.polls,
      agentProcesses: r.agentProcesses,
      loopDelayMs: {
        p50: round(r.loopDelayMs.p50),
        p99: round(r.loopDelayMs.p99),
        max: round(r.loopDelayMs.max),
      },
    })),
    ...heldJson(e),
    targetsMet: {
      idleReads: q.warm.met,
      idlePollRatio: q.pollRatioMet,
      propagationP99: q.runs.map((r) => ({ agents: r.agents, met: r.p99Met })),
    },
  }
}
