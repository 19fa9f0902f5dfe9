/**
 * Fan-out results for the report tests: figures shaped like a default run (100 ConfigMaps to 1000
 * SyncTargets), with any part overridable.
 */
import type { FanOutPhase, FanOutResults } from '../../bench/fan-out-types.ts'
import { summarize } from '../../bench/stats.ts'

export function phase(over: Partial<FanOutPhase>): FanOutPhase {
  return {
    completeMs: 6_200,
    cpuMs: 9_000,
    storeCpuMs: 4_000,
    whereMs: 300,
    translateMs: 5_000,
    translateCalls: 4,
    rounds: 1,
    retried: 0,
    deferred: { where: 0, translate: 0 },
    requests: { GetItem: 3000, PutItem: 1102, UpdateItem: 1000, BatchWriteItem: 1000 },
    requestsTotal: 6102,
    bodies: { attempted: 300, stored: 102 },
    translateKeyMs: summarize([10, 20, 30]),
    whereKeyMs: summarize([250]),
    runs: { where: 1, translate: 1000 },
    unchangedRuns: {},
    ...over,
  }
}

export function fanOut(over: Partial<FanOutResults> = {}): FanOutResults {
  return {
    targets: 1000,
    objects: 100,
    itemBytes: 1024,
    batch: 500,
    calls: 2,
    placementKey: 'ws-id/fan-out',
    setup: { createMs: 25_000, mailboxMs: 80_000, translateMs: 20_000 },
    initial: phase({}),
    change: phase({
      completeMs: 2_100,
      translateMs: 2_000,
      requests: { GetItem: 3000, PutItem: 1000 },
      requestsTotal: 4000,
      bodies: { attempted: 8, stored: 1 },
    }),
    rawPutPerSec: 400,
    ...over,
  }
}
