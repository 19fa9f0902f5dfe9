/**
 * The report of the propagation run to real agents through `npm start` (npm-start-edges.ts): its
 * lines in the scale run's text report, plain and held polls side by side (p50/p99/max from each
 * write's return until every agent applied it, per mode and per change), and its figures in the
 * scale run's `goals` map: `npmStartHeldPropagationP99Ms` (target 2 s, issue 38) and, beside it,
 * the plain polls' p99 (target the longest gap the agent's jitter allows between polls + 2 s, as
 * the in-process `propagationP99Ms`: 18.5 s at the default 15 s). Values
 * are null when the run was left out. Pure.
 */
import { POLL_JITTER } from '../lib/edge-agent/backoff.ts'
import { TARGET_HELD_P99_MS } from './edge-held-report.ts'
import type { Goal } from './goal.ts'
import type { NpmStartEdges, NpmStartEdgesMode } from './npm-start-edges.ts'
import { round } from './stats.ts'

/** The plain interval the figures are read at: the agent's default. */
export const NPM_START_INTERVAL_MS = 15_000

/**
 * Plain polls' p99 target: a change written just after an agent's poll waits for its next one, at
 * most the interval and its jitter, and then the 2 s the held polls are held to.
 */
export const plainPropagationTargetMs = (intervalMs: number) =>
  Math.round(intervalMs * (1 + POLL_JITTER)) + TARGET_HELD_P99_MS

const p99 = (m: NpmStartEdgesMode | undefined) =>
  m && Number.isFinite(m.latencyMs.p99) ? Math.round(m.latencyMs.p99) : null

export function npmStartEdgesGoals(r: NpmStartEdges | null): Record<string, Goal> {
  const edges = r?.agents ?? null
  return {
    npmStartHeldPropagationP99Ms: { value: p99(r?.held), target: TARGET_HELD_P99_MS, edges },
    npmStartPlainPropagationP99Ms: {
      value: p99(r?.plain),
      target: plainPropagationTargetMs(r?.intervalMs ?? NPM_START_INTERVAL_MS),
      edges,
    },
  }
}

const ms = (x: number) => (Number.isFinite(x) ? String(Math.round(x)) : '-')

function modeLine(m: NpmStartEdgesMode): string {
  const name = m.holdSeconds > 0 ? `held (wait=${m.holdSeconds} s)` : 'plain'
  const l = m.latencyMs
  return `  ${name.padEnd(19)} p50 ${ms(l.p50)} ms, p99 ${ms(l.p99)} ms, max ${ms(l.max)} ms, missing ${m.missing}; ${m.polls.failed} failed polls; ${m.requests.desired} desired + ${m.requests.held} held requests over the changes, ${m.requests.failed} failed`
}

function perChange(m: NpmStartEdgesMode): string {
  const each = m.changes.map((c) => `${ms(c.latencyMs.p99)}`).join(', ')
  return `  ${''.padEnd(19)} per change p99 ${each} ms (write ${m.changes.map((c) => ms(c.writeMs)).join(', ')} ms)`
}

export function renderNpmStartEdges(r: NpmStartEdges | null): string[] {
  if (!r) return []
  const s = (x: number) => round(x / 1000, 1)
  return [
    `propagation through npm start, ${r.agents} real agents, plain interval ${r.intervalMs} ms, ${r.plain.changes.length} changes per mode (from the write's return until every agent applied it):`,
    `  setup     register ${s(r.setupMs.register)} s, bootstrap ${s(r.setupMs.bootstrap)} s, placement ${s(r.setupMs.place)} s`,
    modeLine(r.plain),
    perChange(r.plain),
    modeLine(r.held),
    perChange(r.held),
  ]
}
