/**
 * The Workers limits edgeplane is built to fit, and the budgets it decided per invocation (one
 * `fetch` request, including the background work it started, or one `scheduled` run). The one
 * place these numbers live; docs/ARCHITECTURE.md ("Workers limits") explains them.
 *
 * - Subrequests: every DynamoDB request attempt and every outgoing fetch counts. The platform
 *   allows 1,000 per invocation on many paid accounts (50 on the free plan, 10,000 on newer paid
 *   accounts); the budget defaults to 1,000 and is configurable (`SUBREQUEST_BUDGET`).
 * - Connections: at most 6 outgoing requests in flight per invocation (the platform queues or
 *   fails more); a semaphore per invocation holds the rest back.
 * - CPU: 30 s per invocation by default (5 min at most); edgeplane aims to stay under a third.
 * - Memory: 128 MB per isolate, shared by the requests it serves at once; not measured per
 *   invocation (bounded by paging: no step holds more than a page of a collection per key).
 *
 * Work is split so that it stops well before the budget: a fraction of it ("share") is the point
 * past which a kind of work starts nothing new and leaves the rest to a later invocation.
 */

/** What the platform allows (paid plan, accounts created before 2024). */
export const WORKERS_LIMITS = {
  subrequests: 1000,
  connections: 6,
  cpuMs: 30_000,
  memoryMb: 128,
} as const

/** The default budget of one invocation. */
export const DEFAULT_BUDGET = {
  subrequests: WORKERS_LIMITS.subrequests,
  connections: WORKERS_LIMITS.connections,
  /** The CPU an invocation should stay under (the bench reports it; nothing can enforce it). */
  cpuMs: 10_000,
} as const

/** Fractions of the subrequest budget at which each kind of work stops starting more. */
export const SHARES = {
  /** Default for work with no share of its own (e.g. a namespace's content removal). */
  default: 0.85,
  /** `/hooks/<step>`: keys are started while the projected cost of those running fits. */
  hook: 0.8,
  /** A watch ends (cleanly; clients re-watch) before a poll could take it past this. */
  watch: 0.75,
  /**
   * The dashboard's scan for edges needing attention reads another window of edges only while
   * that window's measured cost still fits under this share; the page asks for the rest.
   */
  attentionScan: 0.5,
  /** The cron, cumulatively: each part runs until the invocation has used its fraction. */
  cron: {
    format: 0.1,
    changeLog: 0.2,
    bodies: 0.35,
    terminations: 0.5,
    liveness: 0.6,
    resync: 0.85,
  },
} as const

/** Subrequests a reconcile key is assumed to cost until one of its batch has been measured. */
export const KEY_COST_ESTIMATE = 30

/** Subrequests a content removal assumes one more object costs (read, write, log, owner index). */
export const OBJECT_COST_ESTIMATE = 8
