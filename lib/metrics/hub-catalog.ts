/**
 * The hub's metric families, declared once: name, help, type, label names in a fixed order,
 * histogram bounds, and a short stable `id` under which the family's deltas are stored
 * (lib/store/metric-items.ts: one attribute per series, named `<id>|<label values...>`, so the
 * stored items stay small). An id is never reused for another family; changing a family's labels
 * means a new id. Families marked `scrape` are computed when /metrics is read, never flushed.
 * Every label value comes from a bounded set chosen by the code (see route-class.ts), never from a
 * raw path or a name, except the stale-edge gauge whose size is capped (edge-last-seen.ts).
 */
import { DURATION_BOUNDS, type MetricType } from './registry.ts'

export type FamilySpec = {
  id: string
  name: string
  help: string
  type: MetricType
  labels: readonly string[]
  bounds?: readonly number[]
  /** Computed at scrape time (a gauge), not accumulated and flushed. */
  scrape?: true
}

type Declared = Pick<FamilySpec, 'id' | 'name' | 'help' | 'labels'>

/** A counter, accumulated per isolate and flushed. */
const counter = (f: Declared): FamilySpec => ({ ...f, type: 'counter' })
/** A histogram of durations in seconds (DURATION_BOUNDS), accumulated and flushed. */
const durations = (f: Declared): FamilySpec => ({
  ...f,
  type: 'histogram',
  bounds: DURATION_BOUNDS,
})
/** A gauge computed when /metrics is read. */
const scraped = (f: Declared): FamilySpec => ({ ...f, type: 'gauge', scrape: true })

export const HTTP_REQUESTS = counter({
  id: 'rq',
  name: 'edgeplane_http_requests_total',
  help: 'Requests answered by the hub, by kube verb, route class, built-in resource (or custom) and HTTP code.',
  labels: ['verb', 'route', 'resource', 'code'],
})

export const HTTP_DURATION = durations({
  id: 'rd',
  name: 'edgeplane_http_request_duration_seconds',
  help: 'Time from receiving a request to its response headers, by kube verb and route class.',
  labels: ['verb', 'route'],
})

export const STORE_REQUESTS = counter({
  id: 'sr',
  name: 'edgeplane_store_requests_total',
  help: 'DynamoDB request attempts by command and result (ok, conditional, throttled, error); SDK retries count again.',
  labels: ['command', 'result'],
})

export const RECONCILES = counter({
  id: 'rc',
  name: 'edgeplane_reconciles_total',
  help: 'Reconcile runs by step and outcome (ok, requeue, error, terminal).',
  labels: ['step', 'outcome'],
})

export const RECONCILE_DURATION = durations({
  id: 'rt',
  name: 'edgeplane_reconcile_duration_seconds',
  help: 'Duration of one reconcile run, by step and outcome.',
  labels: ['step', 'outcome'],
})

export const EDGE_POLLS = counter({
  id: 'ep',
  name: 'edgeplane_edge_polls_total',
  help: 'Desired-state polls by edge agents, by HTTP code (200 new content, 304 unchanged).',
  labels: ['code'],
})

export const EDGE_REPORTS = counter({
  id: 'er',
  name: 'edgeplane_edge_reports_total',
  help: 'Reports posted by edge agents, by HTTP code.',
  labels: ['code'],
})

export const EDGE_SHED = counter({
  id: 'eh',
  name: 'edgeplane_edge_shed_total',
  help: 'Edge API requests shed at once with 429 and Retry-After because the process was working on its limit of edge requests (EDGE_MAX_IN_FLIGHT), by route.',
  labels: ['route'],
})

export const FLUSHES = counter({
  id: 'mf',
  name: 'edgeplane_metrics_flushes_total',
  help: 'Flushes of per-isolate metric deltas to the store, by result (ok, retried later, dropped).',
  labels: ['result'],
})

export const EDGES_BY_LAST_SEEN = scraped({
  id: 'eb',
  name: 'edgeplane_edges_by_last_seen',
  help: 'SyncTargets by the age of their last agent heartbeat (the first bucket ends at the staleness threshold; never: no heartbeat recorded).',
  labels: ['age'],
})

export const STALE_EDGE_LAST_SEEN = scraped({
  id: 'es',
  name: 'edgeplane_edge_last_seen_timestamp_seconds',
  help: 'Last heartbeat of each SyncTarget stale by the staleness threshold the hub is configured with, where the first age bucket of edgeplane_edges_by_last_seen ends (at most 200, oldest dropped first).',
  labels: ['space', 'sync_target'],
})

export const EDGES_SCANNED_AT = scraped({
  id: 'ea',
  name: 'edgeplane_edges_scanned_timestamp_seconds',
  help: 'When the SyncTargets behind the edge gauges were read (they are cached for a minute).',
  labels: [],
})

/** Every family the hub serves, flushed or computed. */
export const HUB_FAMILIES: readonly FamilySpec[] = [
  HTTP_REQUESTS,
  HTTP_DURATION,
  STORE_REQUESTS,
  RECONCILES,
  RECONCILE_DURATION,
  EDGE_POLLS,
  EDGE_REPORTS,
  EDGE_SHED,
  FLUSHES,
  EDGES_BY_LAST_SEEN,
  STALE_EDGE_LAST_SEEN,
  EDGES_SCANNED_AT,
]

export const FAMILY_BY_ID: ReadonlyMap<string, FamilySpec> = new Map(
  HUB_FAMILIES.map((f) => [f.id, f])
)
export const FAMILY_BY_NAME: ReadonlyMap<string, FamilySpec> = new Map(
  HUB_FAMILIES.map((f) => [f.name, f])
)
