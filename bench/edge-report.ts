/**
 * The edge phase in the report: the derived figures (reads and writes per idle poll, the
 * real/bare polls-per-second ratio, requests per agent poll while idle), the verdicts against the
 * issue's targets (an unchanged poll costs at most 1 read and no write; idle polls at least 50% of
 * a bare 304 endpoint's rate; propagation p99 at most the poll interval + 1 s) and the report
 * lines (the JSON summary's `edge` section is edge-report-json.ts). Pure.
 */
import type { EdgeResults, PropagationRun } from './edge-types.ts'
import type { RequestCost } from './request-costs.ts'
import { ratio } from './stats.ts'
import { type Cell, fmt, formatTable } from './table.ts'

export const TARGET_IDLE_READS = 1
export const TARGET_IDLE_RATIO = 0.5
export const TARGET_P99_SLACK_MS = 1000

const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan'])
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'])

/** Reads and writes per operation of a request-count average. */
export function readsWrites(perOperation: Record<string, number>) {
  let reads = 0
  let writes = 0
  for (const [op, n] of Object.entries(perOperation)) {
    if (READS.has(op)) reads += n
    if (WRITES.has(op)) writes += n
  }
  return { reads, writes }
}

export const p99Target = (intervalMs: number) => intervalMs + TARGET_P99_SLACK_MS

export type EdgeFigures = {
  warm: { reads: number; writes: number; met: boolean }
  cold: { reads: number; writes: number } | null
  pollRatio: number
  pollRatioMet: boolean
  /** Real 304 polls/s over raw GetItem/s: the hub's share apart from the one read. */
  vsRawGetItem: number
  runs: { agents: number; requestsPerPoll: number; p99Met: boolean }[]
}

export function edgeFigures(e: EdgeResults): EdgeFigures {
  const warm = readsWrites(e.idle.warm.perOperation)
  const pollRatio = ratio(e.idle.throughput.real.opsPerSec, e.idle.throughput.bare.opsPerSec)
  return {
    warm: { ...warm, met: warm.reads <= TARGET_IDLE_READS && warm.writes === 0 },
    cold: e.idle.cold ? readsWrites(e.idle.cold.perOperation) : null,
    pollRatio,
    pollRatioMet: pollRatio >= TARGET_IDLE_RATIO,
    vsRawGetItem: ratio(e.idle.throughput.real.opsPerSec, e.rawGetPerSec),
    runs: e.propagation.map((r) => ({
      agents: r.agents,
      requestsPerPoll:
        r.idleWindow.polls > 0 ? r.idleWindow.requestsTotal / r.idleWindow.polls : Number.NaN,
      p99Met: r.missing === 0 && r.latencyMs.p99 <= p99Target(r.intervalMs),
    })),
  }
}

const verdict = (met: boolean) => (met ? 'met' : 'MISSED')
const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`

function byOperation(perOperation: Record<string, number>, digits = 2): string {
  const ops = Object.keys(perOperation).sort()
  if (ops.length === 0) return 'none'
  return ops.map((op) => `${op} ${fmt(perOperation[op] ?? 0, digits)}`).join(', ')
}

function costLine(label: string, c: RequestCost): string {
  const rw = readsWrites(c.perOperation)
  return `    ${label}: ${fmt(c.total, 2)} requests per poll (${byOperation(c.perOperation)}; ${c.samples} polls) = ${fmt(rw.reads, 2)} reads, ${fmt(rw.writes, 2)} writes`
}

function runRow(r: PropagationRun, met: boolean): Cell[] {
  const s = r.latencyMs
  return [
    r.agents,
    r.changes.length,
    s.count,
    r.missing,
    fmt(s.p50, 0),
    fmt(s.p90, 0),
    fmt(s.p99, 0),
    fmt(s.max, 0),
    verdict(met),
  ]
}

function changeRows(r: PropagationRun): Cell[][] {
  return r.changes.map((c, i) => [
    r.agents,
    `${i + 1} ${c.kind}`,
    fmt(c.writeMs, 0),
    fmt(c.translateMs, 0),
    fmt(c.latencyMs.p50, 0),
    fmt(c.latencyMs.p99, 0),
    fmt(c.latencyMs.max, 0),
    c.missing,
    fmt(c.requestsTotal / r.agents, 1),
  ])
}

/** The report section (phase 6). */
export function renderEdge(e: EdgeResults): string {
  const q = edgeFigures(e)
  const t = e.idle.throughput
  const target = p99Target(e.intervalMs)
  const lines = [
    `6. Edge API and agents (poll interval ${e.intervalMs} ms)`,
    `  idle poll: GET /edge/v1/mailboxes/<m>/desired, If-None-Match = the current version -> 304 (${e.idle.mailboxes} mailboxes, each with its own token)`,
    costLine('caches warm', e.idle.warm) +
      ` (target ${TARGET_IDLE_READS} read, 0 writes: ${verdict(q.warm.met)})`,
    e.idle.cold
      ? costLine(
          'token cache cold (10 s token cache expired; mailbox-space cache 10 min)',
          e.idle.cold
        )
      : '    token cache cold: skipped (--skip-edge-cold, --quick)',
    `    polls/s, ${t.concurrency} workers, ${t.rounds} alternating rounds of ${t.real.ops / t.rounds}: real ${fmt(t.real.opsPerSec)} vs bare hono 304 ${fmt(t.bare.opsPerSec)} = ${fmt(q.pollRatio, 2)}x (target ≥ ${TARGET_IDLE_RATIO}x: ${verdict(q.pollRatioMet)}); rounds ${t.roundRatios.map((x) => `${fmt(x, 2)}x`).join(' ')}`,
    `    a 304 poll reads the manifest (1 GetItem): real polls/s = ${fmt(q.vsRawGetItem, 2)}x raw GetItem/s (${fmt(e.rawGetPerSec)}/s through the SDK to the same dynalite, phase 1)`,
    `    latency p50/p99 (median round): real ${fmt(t.real.p50Ms, 2)}/${fmt(t.real.p99Ms, 2)} ms, bare ${fmt(t.bare.p50Ms, 2)}/${fmt(t.bare.p99Ms, 2)} ms`,
    '  propagation: source write over the hub API -> translate keys of every mailbox posted to /hooks/translate right after it (as the relay would; the relay itself is not run) -> each real agent (lib/edge-agent) polls the edge API over HTTP with its own token -> applies to its edge cluster, an in-memory EdgeKube written for the bench (not a kube API server)',
    `  latency = write sent -> object with the new content stored at that edge, ms (target p99 ≤ ${target} ms)`,
    formatTable(
      ['agents', 'changes', 'samples', 'missing', 'p50', 'p90', 'p99', 'max', 'p99 target'],
      e.propagation.map((r, i) => runRow(r, q.runs[i]?.p99Met ?? false))
    ),
    '  per change (translate = write sent -> every manifest written; requests = the hub DynamoDB requests until every agent applied it, per agent)',
    formatTable(
      ['agents', 'change', 'write ms', 'translate ms', 'p50', 'p99', 'max', 'missing', 'requests'],
      e.propagation.flatMap(changeRows)
    ),
    '  idle window (one interval, every agent idle): hub DynamoDB requests per agent poll',
  ]
  for (const [i, r] of e.propagation.entries()) {
    const w = r.idleWindow
    const perPoll = Object.fromEntries(
      Object.entries(w.requests).map(([op, n]) => [op, w.polls > 0 ? n / w.polls : Number.NaN])
    )
    const expected = (r.agents * w.ms) / r.intervalMs
    lines.push(
      `    ${r.agents} agents: ${w.polls} polls in ${sec(w.ms)} (${fmt(expected, 0)} expected at the interval), ${fmt(q.runs[i]?.requestsPerPoll ?? Number.NaN, 2)} requests per poll (${byOperation(perPoll)})`
    )
  }
  lines.push('  setup (not timed) and agents')
  for (const r of e.propagation) {
    const s = r.setupMs
    const d = r.loopDelayMs
    lines.push(
      `    ${r.agents} agents (${r.agentProcesses === 1 ? "in the hub's process" : `in ${r.agentProcesses} processes`}): inventory ${sec(s.inventory)}, tokens ${sec(s.tokens)}, placement ${sec(s.placement)}, agents settled ${sec(s.agentsReady)}; polls ${r.polls.polls} (${r.polls.applied} applied, ${r.polls.unchanged} unchanged, ${r.polls.failed} failed); event-loop delay while timed p50 ${fmt(d.p50, 0)} / p99 ${fmt(d.p99, 0)} / max ${fmt(d.max, 0)} ms`
    )
  }
  return lines.join('\n')
}
