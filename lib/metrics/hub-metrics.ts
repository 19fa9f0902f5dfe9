/**
 * The hub's per-isolate metrics: typed recorders over a registry of deltas (hub-catalog.ts names
 * the families), and the flush that adds those deltas to the store. A Worker runs many
 * short-lived isolates, so a counter in one is meaningless to scrape; instead each isolate swaps
 * its registry for an empty one and sends what it held (encoded by delta-codec.ts) to its shard
 * of the store's metric items, at most once every `flushEveryMs` and at once for the first
 * request (an isolate may not live to see a second), in the background of a request. Deltas the
 * store certainly did not take (throttled, unreachable) wait for the next flush, up to
 * MAX_CARRY series; others are dropped and counted. One flush is in flight per isolate at a time.
 */
import type { Logger } from '../log.ts'
import { encodeDeltas } from './delta-codec.ts'
import {
  EDGE_POLLS,
  EDGE_REPORTS,
  EDGE_SHED,
  type FamilySpec,
  FLUSHES,
  HTTP_DURATION,
  HTTP_REQUESTS,
  RECONCILE_DURATION,
  RECONCILES,
  STORE_REQUESTS,
} from './hub-catalog.ts'
import { type Labels, MetricsRegistry } from './registry.ts'
import type { RequestLabels } from './route-class.ts'

/** Where the deltas go and the totals come from (lib/store/metric-items.ts implements it). */
export type MetricSink = {
  add(
    shard: number,
    deltas: ReadonlyMap<string, number>
  ): Promise<{ applied: number; retry: Map<string, number>; dropped: number }>
  read(): Promise<Map<string, number>>
}

export type HubMetricsOptions = {
  sink: MetricSink
  /** This isolate's shard of the metric items. */
  shard: number
  /** Least time between two flushes; default 30 s. */
  flushEveryMs?: number
  /** Milliseconds clock; default Date.now. */
  now?: () => number
  log?: Logger
}

export type ReconcileOutcome = 'ok' | 'requeue' | 'error' | 'terminal'

export const DEFAULT_FLUSH_MS = 30_000
const MAX_CARRY = 5_000

export class HubMetrics {
  private pending = new MetricsRegistry()
  private carry = new Map<string, number>()
  private lastFlush = Number.NEGATIVE_INFINITY
  private inFlight: Promise<void> | undefined
  readonly now: () => number
  private readonly flushEveryMs: number
  private readonly opts: HubMetricsOptions

  constructor(opts: HubMetricsOptions) {
    this.opts = opts
    this.now = opts.now ?? Date.now
    this.flushEveryMs = opts.flushEveryMs ?? DEFAULT_FLUSH_MS
  }

  private inc(f: FamilySpec, labels: Labels, by = 1): void {
    this.pending.inc(f.name, f.help, labels, by)
  }

  private observe(f: FamilySpec, labels: Labels, seconds: number): void {
    this.pending.observe(f, labels, seconds)
  }

  /** One answered request. */
  request(labels: RequestLabels, code: number, seconds: number): void {
    const c = String(code)
    this.inc(HTTP_REQUESTS, { ...labels, code: c })
    this.observe(HTTP_DURATION, { verb: labels.verb, route: labels.route }, seconds)
    if (labels.route === 'edge-desired') this.inc(EDGE_POLLS, { code: c })
    else if (labels.route === 'edge-reports') this.inc(EDGE_REPORTS, { code: c })
  }

  /** One edge request shed by the admission guard (lib/edge/admission.ts); `route` as classified. */
  edgeShed(route: string): void {
    this.inc(EDGE_SHED, { route })
  }

  /** One DynamoDB request attempt. */
  storeRequest(command: string, result: string): void {
    this.inc(STORE_REQUESTS, { command, result })
  }

  /** One reconcile run of `step`. */
  reconcile(step: string, outcome: ReconcileOutcome, seconds: number): void {
    this.inc(RECONCILES, { step, outcome })
    this.observe(RECONCILE_DURATION, { step, outcome }, seconds)
  }

  /** `reconcile` as a RunObserver (lib/reconcile/run.ts). */
  readonly reconcileObserver = (step: string, outcome: ReconcileOutcome, seconds: number) =>
    this.reconcile(step, outcome, seconds)

  /** True when a flush would send something and the interval has passed. */
  flushDue(): boolean {
    if (this.inFlight) return false
    if (this.pending.families.size === 0 && this.carry.size === 0) return false
    return this.now() - this.lastFlush >= this.flushEveryMs
  }

  /** Starts a flush through `background` (ctx.waitUntil) when one is due. */
  maybeFlush(background: (p: Promise<unknown>) => void): void {
    if (this.flushDue()) background(this.flush())
  }

  /** Sends every delta held now (after any flush in flight); never throws. */
  async flush(): Promise<void> {
    while (this.inFlight) await this.inFlight
    const run = this.send()
    this.inFlight = run
    try {
      await run
    } finally {
      this.inFlight = undefined
    }
  }

  private async send(): Promise<void> {
    this.lastFlush = this.now()
    const taken = this.pending
    this.pending = new MetricsRegistry()
    const deltas = encodeDeltas(taken, this.carry)
    this.carry = new Map()
    if (deltas.size === 0) return
    let result: 'ok' | 'retry' | 'dropped' = 'ok'
    try {
      const out = await this.opts.sink.add(this.opts.shard, deltas)
      if (out.retry.size > 0 && out.retry.size <= MAX_CARRY) {
        for (const [k, v] of out.retry) this.carry.set(k, (this.carry.get(k) ?? 0) + v)
        result = 'retry'
      }
      if (out.dropped > 0 || out.retry.size > MAX_CARRY) result = 'dropped'
    } catch (e) {
      result = 'dropped'
      this.opts.log?.warn('metrics flush failed', { error: e })
    }
    this.inc(FLUSHES, { result })
  }

  /** Flushes this isolate's deltas, then reads the totals of every isolate. */
  async totals(): Promise<Map<string, number>> {
    await this.flush()
    return this.opts.sink.read()
  }
}
