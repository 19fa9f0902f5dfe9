/**
 * The report of the propagation run to real agents through `npm start` (npm-start-edges.ts): its
 * lines in the scale run's text report, plain and held polls side by side (p50/p99/max from each
 * write's return until every agent applied it, per mode and per change), and its figures in the
 * scale run's `goals` map: `npmStartHeldPropagationP99Ms` (target 2 s, issue 38) and, beside it,
 * the plain polls' p99 (target one interval + 2 s, as the in-process `propagationP99Ms`). Values
 * are null when the run was left out. Pure.
 */
import type { Goal } from './goal.ts'
import type { NpmStartEdges, NpmStartEdgesMode } from './npm-start-edges.ts'
import { round } from './stats.ts'

/** Issue 38: a held poll's change reaches every edge within 2 s (p99). */
export const HELD_P99_TARGET_MS = 2000
/** The plain interval the figures are read at: the agent's default. */
export const NPM_START_INTERVAL_MS = 15_000

const p99 = (m: NpmStartEdgesMode | undefined) =>
  m && Number.isFinite(m.latencyMs.p99) ? Math.round(m.latencyMs.p99) : null

export function npmStartEdgesGoals(r: NpmStartEdges | null): Record<string, Goal> {
  const edges = r?.agents ?? null
  return {
    npmStartHeldPropagationP99Ms: { value: p99(r?.held), target: HELD_P99_TARGET_MS, edges },
    npmStartPlainPropagationP99Ms: {
      value: p99(r?.plain),
      target: (r?.intervalMs ?? NPM_START_INTERVAL_MS) + 2000,
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
