/**
 * What the hub's object logic needs from the outside world, injected as plain values and small
 * functions so tests can pass fakes without a mocking library: the object and key-value stores
 * (`objects` includes the projected copies of mailbox spaces), the projection store, a clock, a
 * uid source, a logger, a way to run work after the response (Workers' `ctx.waitUntil`, or a
 * tracked promise in Node), and what belongs to one hub: its caches and its kind hooks.
 */
import type { Builtins } from '../apis/builtins.ts'
import type { EdgeAdmission } from '../edge/admission.ts'
import type { EdgeHold } from '../edge/bell.ts'
import type { KubeObject } from '../kube/types.ts'
import type { Logger } from '../log.ts'
import type { HubOps } from '../metrics/hub-ops.ts'
import type { ProjectionStore } from '../store/projection-types.ts'
import type { KvStore, ObjectStore } from '../store/types.ts'
import type { Liveness } from '../summarize/liveness.ts'
import type { HubCaches } from './hub-caches.ts'
import type { KindHookRegistry } from './kind-hooks.ts'
import type { Space } from './spaces.ts'
import type { HubSite } from './unavailable-subresources.ts'

export type HubDeps = {
  objects: ObjectStore
  kv: KvStore
  /** Mailbox manifests and bodies (the translator writes them; `objects` serves them). */
  projections: ProjectionStore
  /** What every edge cluster has built in (deployment configuration); default the kube four. */
  builtins?: Builtins
  /** The edges' staleness rule (deployment configuration); default DEFAULT_LIVENESS. */
  liveness?: Liveness
  now: () => Date
  uid: () => string
  log: Logger
  /** Runs background work (garbage collection, namespace cleanup) past the response. */
  background: (work: Promise<unknown>) => void
  /**
   * A full API-server emulation's defaults on every write (simulated edge clusters: allocations
   * too); absent, kube's declared defaults of the built-in kinds (lib/hub/defaulting.ts).
   */
  defaults?: Defaulter
  /** What this hub serves (default center spaces); it words what cannot be answered here. */
  site?: HubSite
  /** What this hub remembers of its store between requests (hub-caches.ts); built with the store. */
  caches: HubCaches
  /** The behaviour of particular kinds in this hub (kind-hooks.ts; the built-ins: builtin-hooks.ts). */
  hooks: KindHookRegistry<HubDeps>
  /** Metrics and readiness of this process or isolate (lib/metrics/hub-ops.ts); absent: none. */
  ops?: HubOps
  /**
   * `rbac`: requests are authorized by the RBAC objects in the store and may impersonate, as
   * kube-apiserver does (a simulated edge cluster, lib/rbac/); absent: the center's token scopes.
   */
  authorization?: 'rbac'
  /**
   * Held desired-state polls (functions/edge-api/desired-hold.ts): the bell the translate step
   * rings and the longest hold granted; absent, polls are answered at once whatever they ask.
   */
  edgeHold?: EdgeHold
  /**
   * The edge API's storm control of this process or isolate (lib/edge/admission.ts,
   * functions/edge-api/admission.ts): past its limit of edge requests in work the next is shed
   * with 429 and a jittered Retry-After; absent, nothing is shed.
   */
  edgeAdmission?: EdgeAdmission
}

/**
 * What a `defaults` function gets (applied by defaulting.ts). Here with HubDeps, which it refers
 * to and which refers to it, so the two types need no import circle.
 */
export type DefaultingRequest = {
  deps: HubDeps
  space: Space
  group: string
  resource: string
  /** The object about to be stored (server-owned metadata already set on create). */
  obj: KubeObject
  /** The stored object on update; undefined on create. */
  old?: KubeObject
  /** Dry runs must not allocate anything for good. */
  dryRun: boolean
}

export type Defaulter = (req: DefaultingRequest) => Promise<KubeObject>
