/**
 * The held idle fleet beside the plain one (held-idle.ts, scale-idle.ts), as the scale report
 * shows it: per idle edge-hour the Worker requests, the center's CPU and its store reads of each
 * (plain: the agents' schedule — a poll per interval, a heartbeat per period — and the window with
 * heartbeats' measured costs; held: the measured window), what the center and the fleet hold per
 * held poll, and the fleet-wide change beside its bound. `heldGoals` adds the issue's targets to
 * the goals map.
 */
import { TOKEN_TRUST_MS, TOKEN_TRUST_SPREAD_MS } from '../lib/auth/tokens.ts'
import type { Goal } from './goal.ts'
import type { HeldIdle } from './held-idle.ts'
import { classLine } from './read-classes.ts'
import type { IdleFleet } from './scale-idle.ts'

const HOUR_MS = 3_600_000
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d

export type PlainEdgeHour = { requests: number; cpuMs: number; reads: number }

/**
 * Token re-reads per edge-hour, whatever the poll mode: each edge's token once per its trust
 * (lib/auth/tokens.ts), on average TOKEN_TRUST_MS less half the spread. The windows see them at
 * whatever phase of the trust they fall on — the plain ones, shorter than it and within one
 * trust of the tokens' first read, none; the held one, a trust after that first read, all of them
 * at once — so both sides count them at this rate instead.
 */
export const TOKEN_REREADS_PER_EDGE_HOUR = HOUR_MS / (TOKEN_TRUST_MS - TOKEN_TRUST_SPREAD_MS / 2)
const TOKEN_READS = 'GetItem kv:tokens'

/** The held window's reads per edge-hour with its token re-reads at their steady rate. */
export const heldSteadyReads = (h: HeldIdle) =>
  h.readsPerEdgeHour - (h.readsByClass[TOKEN_READS] ?? 0) + TOKEN_REREADS_PER_EDGE_HOUR

/**
 * A plain idle edge-hour: polls per interval and beats per period, at the measured costs, and the
 * token re-reads at their rate.
 */
export function plainEdgeHour(f: IdleFleet, cores: number): PlainEdgeHour {
  const hb = f.withHeartbeats
  const polls = HOUR_MS / f.intervalMs
  const beats = HOUR_MS / hb.periodMs
  const beatReads = hb.requestsPerHeartbeat - hb.writesPerHeartbeat
  return {
    requests: polls + beats,
    cpuMs: (hb.centerCpuFraction * cores * HOUR_MS) / Math.max(1, f.agents),
    reads: f.readsPerPoll * polls + Math.max(0, beatReads) * beats + TOKEN_REREADS_PER_EDGE_HOUR,
  }
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : Number.NaN)

export function heldGoals(idle: Idle): Record<string, Goal> {
  const f = idle?.fleet
  const h = idle?.held ?? null
  const plain = f && h ? plainEdgeHour(f, h.cores) : undefined
  const edges = h?.agents ?? null
  const of = (pick: (p: PlainEdgeHour, h: HeldIdle) => number) =>
    plain && h ? round(pick(plain, h), 3) : null
  return {
    heldIdleRequestsShare: {
      value: of((p, h) => ratio(h.requestsPerEdgeHour, p.requests)),
      target: 0.25,
      edges,
    },
    heldIdleCpuRatio: { value: of((p, h) => ratio(h.cpuMsPerEdgeHour, p.cpuMs)), target: 1, edges },
    heldIdleReadsRatio: {
      value: of((p, h) => ratio(heldSteadyReads(h), p.reads)),
      target: 1,
      edges,
    },
    heldChangeToBound: {
      value: h ? round(ratio(h.change.allAnsweredMs, h.change.boundMs), 2) : null,
      target: 1.5,
      edges,
    },
  }
}

type Idle = { fleet: IdleFleet; held: HeldIdle | null } | null | undefined

export function renderHeld(idle: Idle): string[] {
  const f = idle?.fleet
  const h = idle?.held
  if (!h) return []
  const p = f ? plainEdgeHour(f, h.cores) : undefined
  const row = (name: string, plain: number | undefined, held: number, d = 1) =>
    `  ${name.padEnd(22)} ${plain === undefined ? '—'.padStart(9) : String(round(plain, d)).padStart(9)}  ${String(round(held, d)).padStart(9)}  ${plain ? `×${round(held / plain, 3)}` : ''}`
  const c = h.change
  const per = h.perHeldPoll
  return [
    `held idle fleet, ${h.agents} agents holding ${h.holdSeconds} s polls, one window of ${round(h.windowMs / 1000)} s` +
      ` (in it ${h.windowFailed.holds} holds and ${h.windowFailed.beats} heartbeats failed; over the whole run ${h.notHeld} not held,` +
      ` ${h.failed} holds and ${h.beatsFailed} heartbeats failed${Object.keys(h.failures).length ? `: ${JSON.stringify(h.failures)}` : ''}):`,
    `  per idle edge-hour          plain       held`,
    row('Worker requests', p?.requests, h.requestsPerEdgeHour),
    `    (held: ${round(h.holdsPerEdgeHour)} holds + ${round(h.beatsPerEdgeHour)} heartbeats)`,
    row('center CPU, ms', p?.cpuMs, h.cpuMsPerEdgeHour),
    row('store reads', p?.reads, heldSteadyReads(h)),
    `    (both with ${round(TOKEN_REREADS_PER_EDGE_HOUR, 2)} token re-reads, their rate; the held window read ${round(h.readsPerEdgeHour)}, ${round(h.readsByClass[TOKEN_READS] ?? 0, 2)} of them tokens)`,
    `  store reads per edge-hour by class, plain (polls and heartbeats, ${f ? round(f.withHeartbeats.periodMs / 1000) : '—'} s beats): ${f ? classLine(f.withHeartbeats.readsByClass) : '—'}`,
    `  held: ${classLine(h.readsByClass)}`,
    `  center CPU ${round(h.centerCpuFraction * 100, 1)} % of the cores while held; store writes ${round(h.writesPerEdgeHour)} per edge-hour`,
    `  per held poll: hub ${round(per.hubRssBytes / 1024, 1)} KiB resident (${round(per.hubHeapBytes / 1024, 1)} KiB heap), ` +
      `${round(per.hubOpenFiles, 2)} open files; the fleet ${round(per.fleetOpenFiles, 2)} open files` +
      ` (hub ${h.openFiles.hubBefore} → ${h.openFiles.hubHeld} open files, fleet peak ${h.openFiles.fleetPeak}; limit raised to ${h.openFiles.limit})`,
    `  fleet-wide change: ${c.answered} of ${h.agents} held polls answered; every one within ${round(c.allAnsweredMs / 1000, 2)} s of the write` +
      ` (p50 ${round(c.answerMs.p50)} ms, p99 ${round(c.answerMs.p99)} ms; the where and translate steps ${round(c.translateMs / 1000, 2)} s of it);` +
      ` bound ${round(c.boundMs / 1000, 2)} s (a full answer ${round(c.fullAnswerCpuMs, 2)} ms of center CPU, ${round(c.fullAnswerHubCpuMs, 2)} ms of it the hub's, × ${h.agents} ÷ ${h.cores} cores);` +
      ` the center's CPU over the change ${round(c.cpuMsPerAnswer.hub + c.cpuMsPerAnswer.store, 2)} ms per held poll (hub ${round(c.cpuMsPerAnswer.hub, 2)} ms, store ${round(c.cpuMsPerAnswer.store, 2)} ms: the steps, the answers and the heartbeats meanwhile)`,
  ]
}
