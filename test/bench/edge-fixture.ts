/**
 * Edge-phase results for the report tests: figures shaped like a default run (100 and 1000
 * agents polling every 5 s), with any part overridable, and runs of plain or held polls at 15 s
 * for the held-poll figures (`modeRun`).
 */
import type { EdgeResults, PropagationRun } from '../../bench/edge-types.ts'
import type { RequestCost } from '../../bench/request-costs.ts'
import { summarize } from '../../bench/stats.ts'

export function cost(perOperation: Record<string, number>, samples = 10): RequestCost {
  const total = Object.values(perOperation).reduce((s, x) => s + x, 0)
  return { operation: 'desired, unchanged (304)', samples, perOperation, total }
}

export function run(agents: number, over: Partial<PropagationRun> = {}): PropagationRun {
  return {
    agents,
    intervalMs: 5000,
    setupMs: { inventory: 20_000, tokens: 800, placement: 2000, agentsReady: 11_000 },
    idleWindow: {
      ms: 5000,
      polls: agents,
      requests: { GetItem: agents * 2 },
      requestsTotal: agents * 2,
    },
    changes: [
      {
        kind: 'create',
        writeMs: 20,
        translateMs: 1500,
        latencyMs: summarize([1000, 3000, 5000]),
        missing: 0,
        requests: { GetItem: agents * 6, PutItem: agents * 2 },
        requestsTotal: agents * 8,
      },
      {
        kind: 'update',
        writeMs: 10,
        translateMs: 1200,
        latencyMs: summarize([800, 2500, 5800]),
        missing: 0,
        requests: { GetItem: agents * 6, PutItem: agents * 2 },
        requestsTotal: agents * 8,
      },
    ],
    latencyMs: summarize([1000, 3000, 5000, 800, 2500, 5800]),
    missing: 0,
    polls: { polls: 900, unchanged: 700, applied: 200, failed: 0 },
    agentProcesses: 1,
    loopDelayMs: { p50: 11, p99: 40, max: 120 },
    ...over,
  }
}

export function edge(over: Partial<EdgeResults> = {}): EdgeResults {
  const rate = (opsPerSec: number) => ({
    ops: 6000,
    elapsedMs: 6_000_000 / opsPerSec,
    opsPerSec,
    p50Ms: 10,
    p99Ms: 30,
  })
  return {
    intervalMs: 5000,
    itemBytes: 1024,
    rawGetPerSec: 1000,
    idle: {
      mailboxes: 100,
      warm: cost({ GetItem: 1 }),
      cold: cost({ GetItem: 3 }),
      throughput: {
        rounds: 3,
        concurrency: 16,
        real: rate(800),
        bare: rate(4000),
        roundRatios: [0.2, 0.19, 0.21],
      },
    },
    propagation: [run(100), run(1000, { latencyMs: summarize([3000, 9000]), missing: 1 })],
    ...over,
  }
}

/**
 * A run of plain polls every 15 s (100 requests and 25 reports over one interval) or of held
 * polls of 300 s (one hold each and five reports over a window of 305 s).
 */
export function modeRun(agents: number, mode: 'plain' | 'held'): PropagationRun {
  const held = mode === 'held'
  return run(agents, {
    intervalMs: 15_000,
    mode,
    ...(held ? { holdSeconds: 300 } : {}),
    idleWindow: {
      ms: held ? 305_000 : 15_000,
      polls: held ? agents * 20 : agents,
      requests: held ? { GetItem: agents, PutItem: agents * 5 } : { GetItem: agents },
      requestsTotal: held ? agents * 6 : agents,
    },
    idleRequests: {
      ms: held ? 305_000 : 15_000,
      requests: held ? { GetItem: agents, PutItem: agents * 5 } : { GetItem: agents },
      requestsTotal: held ? agents * 6 : agents,
      agentRequests: held
        ? { desired: 0, held: agents, reports: agents * 5, failed: 0 }
        : { desired: agents, held: 0, reports: agents / 4, failed: 0 },
    },
    latencyMs: held ? summarize([300, 800, 1500]) : summarize([1000, 7000, 14_000]),
  })
}
