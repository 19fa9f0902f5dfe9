/**
 * What the hub's object logic needs from the outside world, injected as plain values and small
 * functions so tests can pass fakes without a mocking library: the object and key-value stores
 * (`objects` includes the projected copies of mailbox spaces), the projection store, a clock, a
 * uid source, a logger, and a way to run work after the response (Workers' `ctx.waitUntil`, or a
 * tracked promise in Node).
 */
import type { Builtins } from '../apis/builtins.ts'
import type { Logger } from '../log.ts'
import type { HubOps } from '../metrics/hub-ops.ts'
import type { ProjectionStore } from '../store/projection-types.ts'
import type { KvStore, ObjectStore } from '../store/types.ts'
import type { Defaulter } from './defaulting.ts'
import type { HubSite } from './unavailable-subresources.ts'

export type HubDeps = {
  objects: ObjectStore
  kv: KvStore
  /** Mailbox manifests and bodies (the translator writes them; `objects` serves them). */
  projections: ProjectionStore
  /** What every edge cluster has built in (deployment configuration); default the kube four. */
  builtins?: Builtins
  now: () => Date
  uid: () => string
  log: Logger
  /** Runs background work (garbage collection, namespace cleanup) past the response. */
  background: (work: Promise<unknown>) => void
  /** API-server defaults applied on every write (simulated edge clusters); the hub has none. */
  defaults?: Defaulter
  /** What this hub serves (default center spaces); it words what cannot be answered here. */
  site?: HubSite
  /** Metrics and readiness of this process or isolate (lib/metrics/hub-ops.ts); absent: none. */
  ops?: HubOps
}

/** RFC 3339 timestamp at second precision, as kube writes metav1.Time. */
export function timestamp(d: Date): string {
  return `${d.toISOString().slice(0, 19)}Z`
}
