/**
 * The fan-out phase's shapes: what it runs against (the bench hub over HTTP plus the stack's
 * counters and inspect store), how it is sized, and what it measures. Plain types only.
 */
import type { ProjectionStore } from '../lib/store/projection-types.ts'
import type { BodyWriteCounts, BodyWrites } from './fan-out-body-writes.ts'
import type { ReconcileLog } from './fan-out-reconcile-log.ts'
import type { HubClient } from './hub-client.ts'
import type { Counter } from './stack.ts'
import type { Summary } from './stats.ts'

export type FanOutDeps = {
  hub: HubClient
  counter: Counter
  bodyWrites: BodyWrites
  reconciles: ReconcileLog
  inspect: ProjectionStore
  /** CPU the store (dynalite's process) has used so far, ms. */
  storeCpuMs: () => number
  progress: (message: string) => void
}

export type FanOutOptions = {
  targets: number
  objects: number
  itemBytes: number
  /** Workers creating the inventory and the ConfigMaps (not timed). */
  concurrency: number
  /** Mailbox keys per translate hook call. */
  batch: number
  /** Translate hook calls in flight. */
  calls: number
}

/** One timed part: the clock starts when the last write returned, and stops when every mailbox is complete. */
export type FanOutPhase = {
  completeMs: number
  /** CPU of this process (the hub with its steps) from the clock start to completion, ms. */
  cpuMs: number
  /** CPU of the store (dynalite's process) over the same time, ms. */
  storeCpuMs: number
  whereMs: number
  /** All translate hook rounds. */
  translateMs: number
  translateCalls: number
  /** Translate rounds (another round for keys that failed or were found incomplete). */
  rounds: number
  /** Mailboxes that needed another round. */
  retried: number
  /** Keys a hook deferred (its budget ran short) and that were sent again, by step. */
  deferred: Record<string, number>
  /** DynamoDB requests of the hub from the clock start to completion, by operation name. */
  requests: Record<string, number>
  requestsTotal: number
  /** Projection body PutItems. */
  bodies: BodyWriteCounts
  /** Per-key durations from the hub's log. */
  translateKeyMs: Summary
  whereKeyMs: Summary
  /** Reconcile runs of the phase by step, and those whose outcome was "unchanged". */
  runs: Record<string, number>
  unchangedRuns: Record<string, number>
}

export type FanOutResults = {
  targets: number
  objects: number
  itemBytes: number
  batch: number
  calls: number
  /** Not timed: SyncTargets and Locations, the mailbox step, the first translate pass (ms). */
  setup: {
    createMs: number
    mailboxMs: number
    translateMs: number
    /** Store requests of each part, when counted. */
    requests?: { objects: number; mailboxes: number; translate: number }
  }
  /** M ConfigMaps and the EdgePlacement applied -> every mailbox holds them all. */
  initial: FanOutPhase
  /** One ConfigMap's data changed -> every mailbox holds the new body. */
  change: FanOutPhase
  /** Raw PutItem items/s with N concurrent workers (phase 1 of the same run). */
  rawPutPerSec: number
  /** The EdgePlacement's step key (`<space id>/<name>`), for the where and summarize hooks. */
  placementKey: string
}
