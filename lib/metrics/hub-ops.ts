/**
 * What the hub's operability endpoints need, one per process or Worker isolate: the metrics
 * accumulator with its flush (hub-metrics.ts) on a randomly picked shard, the edge last-seen cache
 * (edge-last-seen.ts) and the readiness check: a store read with a short timeout, its answer
 * remembered for READY_CACHE_MS so that unauthenticated /readyz calls cost the store at most one
 * read per second per isolate, and when the isolate started (its first request: the one
 * process_* reading a Worker can take, process-families.ts). Built by functions/index.ts (the
 * Worker) and by callers of functions/node-server.ts that want /metrics and a real /readyz.
 */
import type { Logger } from '../log.ts'
import type { DynamoStore } from '../store/dynamo-store.ts'
import { METRIC_SHARDS } from '../store/metric-items.ts'
import { observeStoreRequests } from '../store/request-observer.ts'
import { EdgeSeenCache } from './edge-last-seen.ts'
import { HubMetrics, type MetricSink } from './hub-metrics.ts'

/**
 * Groups whose principals may read /metrics besides admins: a Token issued with the group
 * `edgeplane:metrics-readers`, or kube's `system:monitoring` for principals registered in code.
 */
export const METRICS_READER_GROUPS: readonly string[] = [
  'edgeplane:metrics-readers',
  'system:monitoring',
]

export const READY_TIMEOUT_MS = 2_000
export const READY_CACHE_MS = 1_000

export type Readiness = { ok: boolean; reason?: string }

export type HubOps = {
  metrics: HubMetrics
  edges: EdgeSeenCache
  /** When these ops were built (the isolate's first request), epoch milliseconds. */
  startedAtMs: number
  /** Whether the store answers (remembered for READY_CACHE_MS). */
  ready(): Promise<Readiness>
}

export type HubOpsOptions = {
  store: { metrics: MetricSink; ping(timeoutMs: number): Promise<void> }
  flushEveryMs?: number
  now?: () => number
  log?: Logger
  /** Default: a random shard of METRIC_SHARDS. */
  shard?: number
}

export function createHubOps(o: HubOpsOptions): HubOps {
  const now = o.now ?? Date.now
  const metrics = new HubMetrics({
    sink: o.store.metrics,
    shard: o.shard ?? Math.floor(Math.random() * METRIC_SHARDS),
    now,
    ...(o.flushEveryMs !== undefined ? { flushEveryMs: o.flushEveryMs } : {}),
    ...(o.log ? { log: o.log } : {}),
  })
  let cached: { at: number; answer: Promise<Readiness> } | undefined
  const check = async (): Promise<Readiness> => {
    try {
      await o.store.ping(READY_TIMEOUT_MS)
      return { ok: true }
    } catch (e) {
      o.log?.warn('readiness: the store did not answer', { error: e })
      return { ok: false, reason: e instanceof Error ? e.name : 'unknown' }
    }
  }
  return {
    metrics,
    edges: new EdgeSeenCache(),
    startedAtMs: now(),
    ready() {
      const t = now()
      if (!cached || t - cached.at >= READY_CACHE_MS) cached = { at: t, answer: check() }
      return cached.answer
    },
  }
}

/** HubOps over a DynamoDB store, whose every request attempt is counted (request-observer.ts). */
export function storeHubOps(store: DynamoStore, o: Omit<HubOpsOptions, 'store'> = {}): HubOps {
  const ops = createHubOps({ ...o, store })
  observeStoreRequests(store.client, (command, result) => ops.metrics.storeRequest(command, result))
  return ops
}
