/**
 * The scale run's goals map (scale-report.ts renders it): per figure of the ten-thousand-edge
 * issue and those after it, the value measured at the largest size, its target and the edge count
 * it was measured at (value null when that part was left out), and the npm start rows' own. Pure.
 */
import { TARGET_HELD_P99_MS } from './edge-held-report.ts'
import type { FanOutResults } from './fan-out-types.ts'
import type { Goal } from './goal.ts'
import { heldGoals } from './held-idle-report.ts'
import { npmStartEdgesGoals, plainPropagationTargetMs } from './npm-start-edges-report.ts'
import { rolloutGoals } from './rollout-report.ts'
import type { ScaleResults } from './scale.ts'
import { overrunsInWrites } from './scale-budgets.ts'
import { round } from './stats.ts'
import { stormGoals } from './storm-report.ts'

/** Store requests per mailbox of the fan-out and of the change (every mailbox's content changes). */
export const perMailbox = (r: FanOutResults) => ({
  fanout: r.initial.requestsTotal / r.targets,
  change: r.change.requestsTotal / r.targets,
})
/** An edge's registration: its SyncTarget and Location written, then its mailbox made. */
export const registerMs = (r: FanOutResults) => r.setup.createMs + r.setup.mailboxMs
const seconds = (ms: number) => round(ms / 1000, 2)

export function scaleGoals(s: ScaleResults, pollIntervalMs: number): Record<string, Goal> {
  const row = s.rows[s.rows.length - 1]
  const edges = row?.targets ?? null
  const fleet = s.idle?.fleet
  const prop = s.propagation?.propagation[s.propagation.propagation.length - 1]
  const held = s.propagation?.held?.at(-1)
  const throughput = s.idle?.bare.throughput
  const cost = row ? perMailbox(row) : undefined
  return {
    fanoutSeconds: { value: row ? seconds(row.initial.completeMs) : null, target: 10, edges },
    overrunsInWrites: overrunsInWrites(s.budgets),
    changeSeconds: { value: row ? seconds(row.change.completeMs) : null, target: 5, edges },
    requestsPerChangedMailbox: {
      value: cost ? round(Math.max(cost.fanout, cost.change), 2) : null,
      target: 1.2,
      edges,
    },
    propagationP99Ms: {
      value: prop ? Math.round(prop.latencyMs.p99) : null,
      target: plainPropagationTargetMs(pollIntervalMs),
      edges: prop?.agents ?? null,
    },
    pollIntervalMs: { value: pollIntervalMs, target: 15_000, edges: prop?.agents ?? null },
    // real agents' held polls, timed while the held fleet (heldIdle*) holds every other edge's
    heldPropagationP99Ms: {
      value: held ? Math.round(held.latencyMs.p99) : null,
      target: TARGET_HELD_P99_MS,
      edges: held?.agents ?? null,
    },
    idleStoreReadsPerPoll: {
      value: fleet ? round(fleet.readsPerPoll, 4) : null,
      target: 0.05,
      edges: fleet?.agents ?? null,
    },
    idleRatioToBare: {
      value: throughput ? round(throughput.real.opsPerSec / throughput.bare.opsPerSec, 3) : null,
      target: 0.5,
      edges: fleet?.agents ?? null,
    },
    registerSeconds: { value: row ? seconds(registerMs(row)) : null, target: 60, edges },
    // idle agents also send a heartbeat a minute: the center's CPU is measured with them
    centerCpuIdleFraction: {
      value: fleet ? round(fleet.withHeartbeats.centerCpuFraction, 3) : null,
      target: 0.5,
      edges: fleet?.agents ?? null,
    },
    ...rolloutGoals(s.rollout),
    ...heldGoals(s.idle),
    ...npmStartEdgesGoals(s.npmStartEdges),
    ...stormGoals(s.storm),
  }
}

/** The same rows through npm start's stack, with the targets at 1,000 edges. */
export function npmStartGoals(s: ScaleResults): Record<string, Goal> | null {
  const n = s.npmStart
  if (!n) return null
  return {
    registerSeconds: { value: seconds(n.register.allMs), target: 30, edges: n.edges },
    fanoutSeconds: { value: seconds(n.place.allMs), target: 10, edges: n.edges },
    changeSeconds: { value: seconds(n.change.allMs), target: 5, edges: n.edges },
  }
}
