/**
 * Held polls beside plain polls in the edge phase's report (issue 38's first bench figure): per
 * agent count and mode, the propagation latency p50/p99/max and missing agents, the edge API
 * requests the agents sent per agent per hour while idle (`idleRequests`, counted at their clients:
 * plain polls, held polls, reports), and the hub's DynamoDB reads per idle desired-state request
 * and per edge-hour; then the goals (goal.ts): held p99 ≤ 2 s, and held idle requests per
 * edge-hour at most a quarter of plain polling's, both at the largest agent count. Pure.
 */

import { readsWrites } from './edge-report.ts'
import { requestsTotal } from './edge-requests.ts'
import type { EdgeResults, PollMode, PropagationRun } from './edge-types.ts'
import type { Goal } from './goal.ts'
import { ratio, round } from './stats.ts'
import { type Cell, fmt, formatTable } from './table.ts'

export const TARGET_HELD_P99_MS = 2000
export const TARGET_HELD_REQUESTS_SHARE = 0.25

const HOUR_MS = 3_600_000

export type ModeFigures = {
  agents: number
  mode: PollMode
  holdSeconds: number | null
  p50Ms: number
  p99Ms: number
  maxMs: number
  missing: number
  /** Edge API requests per agent per hour while idle (NaN when not counted), and by kind. */
  requestsPerAgentHour: number
  desiredPerAgentHour: number
  heldPerAgentHour: number
  reportsPerAgentHour: number
  /** Hub DynamoDB reads per desired-state request (plain or held) in the idle window. */
  readsPerIdlePoll: number
  /** Hub DynamoDB reads per agent per hour in the idle window. */
  readsPerEdgeHour: number
}

export function modeFigures(r: PropagationRun): ModeFigures {
  const w = r.idleRequests
  const sent = w?.agentRequests
  const perHour = (n: number | undefined) =>
    n === undefined || !w || r.agents === 0 || w.ms <= 0
      ? Number.NaN
      : n / r.agents / (w.ms / HOUR_MS)
  const reads = w ? readsWrites(w.requests).reads : Number.NaN
  return {
    agents: r.agents,
    mode: r.mode ?? 'plain',
    holdSeconds: r.holdSeconds ?? null,
    p50Ms: r.latencyMs.p50,
    p99Ms: r.latencyMs.p99,
    maxMs: r.latencyMs.max,
    missing: r.missing,
    requestsPerAgentHour: perHour(sent ? requestsTotal(sent) : undefined),
    desiredPerAgentHour: perHour(sent?.desired),
    heldPerAgentHour: perHour(sent?.held),
    reportsPerAgentHour: perHour(sent?.reports),
    readsPerIdlePoll:
      sent && sent.desired + sent.held > 0 ? reads / (sent.desired + sent.held) : Number.NaN,
    readsPerEdgeHour: perHour(reads),
  }
}

export type HeldPair = {
  agents: number
  plain: ModeFigures
  held: ModeFigures | null
  /** Held over plain idle requests per edge-hour (NaN without a held run). */
  requestsShare: number
  p99Met: boolean
  shareMet: boolean
}

/** Each agent count's plain run beside its held run (same agent count), in the plain runs' order. */
export function heldPairs(e: EdgeResults): HeldPair[] {
  return e.propagation.map((p) => {
    const plain = modeFigures(p)
    const h = e.held?.find((x) => x.agents === p.agents)
    const held = h ? modeFigures(h) : null
    const requestsShare = held
      ? ratio(held.requestsPerAgentHour, plain.requestsPerAgentHour)
      : Number.NaN
    return {
      agents: p.agents,
      plain,
      held,
      requestsShare,
      p99Met: held !== null && held.missing === 0 && held.p99Ms <= TARGET_HELD_P99_MS,
      shareMet: held !== null && requestsShare <= TARGET_HELD_REQUESTS_SHARE,
    }
  })
}

/** The goals of held polls, at the largest agent count with a held run. */
export function heldGoals(e: EdgeResults): Record<string, Goal> {
  const pair = heldPairs(e)
    .filter((p) => p.held)
    .sort((a, b) => a.agents - b.agents)
    .pop()
  const edges = pair?.agents ?? null
  return {
    heldPropagationP99Ms: {
      value: pair?.held ? Math.round(pair.held.p99Ms) : null,
      target: TARGET_HELD_P99_MS,
      edges,
    },
    heldIdleRequestsShare: {
      value: pair ? round(pair.requestsShare, 3) : null,
      target: TARGET_HELD_REQUESTS_SHARE,
      edges,
    },
  }
}

const verdict = (met: boolean) => (met ? 'met' : 'MISSED')

function modeRow(m: ModeFigures): Cell[] {
  return [
    m.agents,
    m.mode === 'held' ? `held ${m.holdSeconds ?? '?'} s` : 'plain',
    m.missing,
    fmt(m.p50Ms, 0),
    fmt(m.p99Ms, 0),
    fmt(m.maxMs, 0),
    fmt(m.requestsPerAgentHour, 1),
    `${fmt(m.desiredPerAgentHour, 1)} / ${fmt(m.heldPerAgentHour, 1)} / ${fmt(m.reportsPerAgentHour, 1)}`,
    fmt(m.readsPerIdlePoll, 2),
    fmt(m.readsPerEdgeHour, 1),
  ]
}

/** The report lines of held vs plain polls (none when no held run was made). */
export function renderHeld(e: EdgeResults): string[] {
  const pairs = heldPairs(e)
  if (!pairs.some((p) => p.held)) return ['  held polls: left out (--edge-hold-seconds 0)']
  const lines = [
    `  held polls beside plain ones (same mailboxes, fresh agents; interval ${e.intervalMs} ms): idle requests = edge API requests the agents sent while idle (both modes over one hold + 5 s), per agent per hour; reads = hub DynamoDB reads then`,
    formatTable(
      [
        'agents',
        'mode',
        'missing',
        'p50',
        'p99',
        'max',
        'req/edge-h',
        'desired / held / reports',
        'reads/poll',
        'reads/edge-h',
      ],
      pairs.flatMap((p) => [modeRow(p.plain), ...(p.held ? [modeRow(p.held)] : [])])
    ),
  ]
  for (const p of pairs) {
    if (!p.held) continue
    lines.push(
      `    ${p.agents} agents: held p99 ${fmt(p.held.p99Ms, 0)} ms (target ≤ ${TARGET_HELD_P99_MS} ms, no agent missing: ${verdict(p.p99Met)}); idle requests held/plain ${fmt(p.requestsShare, 3)} (target ≤ ${TARGET_HELD_REQUESTS_SHARE}: ${verdict(p.shareMet)})`
    )
  }
  lines.push('  goals (value / target @ edges):')
  for (const [k, g] of Object.entries(heldGoals(e)))
    lines.push(`    ${k.padEnd(24)} ${g.value ?? '-'} / ${g.target} @ ${g.edges ?? '-'}`)
  return lines
}

const num = (x: number, digits = 1) => round(x, digits)

/** The JSON of held vs plain polls: a row per agent count and mode, and the goals. */
export function heldJson(e: EdgeResults): Record<string, unknown> {
  const row = (m: ModeFigures) => ({
    agents: m.agents,
    mode: m.mode,
    holdSeconds: m.holdSeconds,
    latencyMs: { p50: num(m.p50Ms), p99: num(m.p99Ms), max: num(m.maxMs) },
    missing: m.missing,
    idleRequestsPerAgentHour: {
      total: num(m.requestsPerAgentHour),
      desired: num(m.desiredPerAgentHour),
      held: num(m.heldPerAgentHour),
      reports: num(m.reportsPerAgentHour),
    },
    storeReadsPerIdlePoll: num(m.readsPerIdlePoll, 3),
    storeReadsPerEdgeHour: num(m.readsPerEdgeHour),
  })
  return {
    modes: heldPairs(e).map((p) => ({
      agents: p.agents,
      plain: row(p.plain),
      held: p.held ? row(p.held) : null,
      requestsShare: num(p.requestsShare, 3),
      targetsMet: { heldP99: p.p99Met, requestsShare: p.shareMet },
    })),
    goals: heldGoals(e),
  }
}
