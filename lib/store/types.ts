/**
 * The storage contract the hub and the reconcile steps depend on. Objects are keyed by space
 * (logical-cluster id), group/resource, namespace ('' for cluster-scoped) and name. Every write is
 * a single conditional operation guarded by resourceVersion, so retries are safe and concurrent
 * writers get Conflict instead of overwriting each other. Watch is served from a change log that is
 * kept for a retention window; asking for an older resourceVersion is 410 Gone (Expired).
 * Implementations: `dynamo-store.ts` (DynamoDB / dynalite). Errors are the ApiErrors of
 * `lib/errors.ts` (AlreadyExists, Conflict, NotFound, Expired, RequestEntityTooLarge).
 */
import type { KubeObject } from '../kube/types.ts'
import type { SharedFeed } from './projection-types.ts'

export type ObjectKey = {
  /** Logical-cluster id of the space (never its path). */
  cluster: string
  group: string
  /** Lowercase plural resource name, e.g. `deployments`. */
  resource: string
  /** '' for cluster-scoped objects. */
  namespace: string
  name: string
}

/** Which collection to list or watch. `cluster: '*'` spans every space (cross-space GSI). */
export type CollectionRef = {
  cluster: string | '*'
  group: string
  resource: string
  /** Restrict to one namespace; undefined = all namespaces. */
  namespace?: string
}

export type ListOptions = CollectionRef & {
  /** Page size; undefined = everything. */
  limit?: number
  /** Opaque token from a previous page. A token older than the log retention is 410 Expired. */
  continue?: string
  /** Applied while paging, so `limit` counts matching objects (label and field selectors). */
  predicate?: (obj: KubeObject) => boolean
  /**
   * Answer with a resourceVersion a watch can resume from without missing a write that was in
   * flight during the list (lib/store/list-marks.ts): the list marks its rv in the collection's
   * log (one more PutItem, sent while the objects are read). For lists whose version
   * a client may watch from; a list read only for its items does without.
   */
  watchable?: boolean
  /**
   * The caller uses the items only (a step reading what is there now): the counter is not read,
   * and the result's resourceVersion is ''. Ignored with `limit`, `continue` or `watchable`.
   */
  itemsOnly?: boolean
}

export type ListResult = {
  items: KubeObject[]
  /** The store's resourceVersion when the list began (as a decimal string). */
  resourceVersion: string
  continue?: string
  /** Estimated number of objects left after this page, when known. */
  remainingItemCount?: number
}

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED'

export type ChangeEvent = {
  type: ChangeType
  /** The object after the change; for DELETED, its last state with the deletion's resourceVersion. */
  object: KubeObject
  /** resourceVersion of this change, numeric. */
  rv: number
  cluster: string
  namespace: string
  /** When the change had landed, by its writer's clock (absent in entries of older releases). */
  landedAt?: number
}

/** Where a watch from a watchable list's resourceVersion resumes (lib/store/list-marks.ts). */
export type ResumePoint = {
  /** Read the change log after this rv. */
  sinceRv: number
  /** Changes at or below this rv (the list's) are handed out only when they landed at or after... */
  upTo: number
  /** ...this time (the list's start): earlier ones are in the list. */
  landedAfter: number
}

export type ChangesOptions = CollectionRef & {
  /** Return changes with rv strictly greater than this. */
  sinceRv: number
  /** At most this many events per call. */
  limit?: number
  /**
   * A mailbox's shared manifest, whose change-log entries are the mailbox's too (the hub passes
   * it for a mailbox collection: lib/store/shared-feed.ts).
   */
  shared?: SharedFeed
  /**
   * When the previous read of this same cursor began (its ChangesResult.polledAt). Every entry
   * past the cursor landed after about then, and the sweep removes only entries older than the
   * retention, so a read that follows one less than half the retention ago cannot have been swept
   * past: the watermark (410 Expired) is not read for it.
   */
  previousPollAt?: number
}

export type ChangesResult = {
  events: ChangeEvent[]
  /** True when more events past the last one are already available. */
  more: boolean
  /** The store's time when this read began: what pollDelay() takes. */
  polledAt: number
  /**
   * Set when the read stopped at an entry issued too recently to hand out (change-log.ts): the
   * store's time at which it settles, when a read would hand it out. A poller can read again
   * then instead of waiting on the change signal, whose counter it may have seen later.
   */
  settlesAt?: number
}

export interface ObjectStore {
  /** undefined when absent. */
  get(key: ObjectKey): Promise<KubeObject | undefined>
  /** The objects at `keys`, in their order, undefined where absent: a read ahead of many gets. */
  getMany(keys: readonly ObjectKey[]): Promise<(KubeObject | undefined)[]>
  /**
   * Create. The caller has set uid, creationTimestamp, generation etc.; the store assigns
   * `metadata.resourceVersion`. AlreadyExists (409) when the key is taken.
   */
  create(key: ObjectKey, obj: KubeObject): Promise<KubeObject>
  /**
   * Replace the stored object if its resourceVersion still equals `expectedRv`; Conflict (409)
   * otherwise, NotFound (404) when absent. Assigns a new resourceVersion.
   */
  update(key: ObjectKey, obj: KubeObject, expectedRv: string): Promise<KubeObject>
  /**
   * Remove the object (with a precondition when `expectedRv` is given) and log a DELETED event.
   * Returns the last state, carrying the deletion's resourceVersion. NotFound when absent.
   */
  delete(key: ObjectKey, expectedRv?: string): Promise<KubeObject>
  list(options: ListOptions): Promise<ListResult>
  /** Change-log entries after `sinceRv`, oldest first. Expired (410) when `sinceRv` is too old. */
  changes(options: ChangesOptions): Promise<ChangesResult>
  /**
   * Where a watch of `collection` from `rv` resumes when `rv` is a watchable list's; undefined
   * for any other rv.
   */
  resumePoint(collection: CollectionRef, rv: number): Promise<ResumePoint | undefined>
  /** The latest resourceVersion issued so far. */
  currentRv(): Promise<number>
  /**
   * How long (ms) until changes() could hand out anything the call that began at `polledAt` (its
   * `ChangesResult.polledAt`) did not, told from the counter alone (change-signal.ts): 0 to poll
   * now (also when unsure), Infinity while nothing can appear until the counter moves.
   */
  pollDelay(polledAt: number): Promise<number>
}

/** A versioned value in the key-value store (cursors, version-choice memory, tokens, spaces). */
export type KvEntry<T = unknown> = { key: string; value: T; version: number }

/** A bounded part of a key-value listing (KvStore.list). */
export type KvPage = { after?: string; limit: number }

export interface KvStore {
  get<T = unknown>(ns: string, key: string): Promise<KvEntry<T> | undefined>
  /**
   * Several entries of one namespace at once, by key (absent ones missing): one consistent
   * BatchGetItem per 100 keys.
   */
  getMany<T = unknown>(ns: string, keys: readonly string[]): Promise<Map<string, KvEntry<T>>>
  /**
   * Write. `expectedVersion`: undefined = unconditional, null = only if absent, a number = only if
   * the stored version equals it (Conflict otherwise). Returns the new version.
   */
  put(ns: string, key: string, value: unknown, expectedVersion?: number | null): Promise<number>
  /**
   * Writes unconditionally and answers the entry it replaced (undefined: there was none), in one
   * UpdateItem: a reader-writer that must learn what it overwrote pays no read first.
   */
  swap<T = unknown>(ns: string, key: string, value: unknown): Promise<KvEntry<T> | undefined>
  delete(ns: string, key: string, expectedVersion?: number): Promise<void>
  /**
   * Entries of `ns` whose key starts with `prefix`, in key order. `page` bounds the read: only
   * keys after `after` (exclusive), at most `limit` of them (one Query).
   */
  list<T = unknown>(ns: string, prefix?: string, page?: KvPage): Promise<KvEntry<T>[]>
}

/** Counts DynamoDB requests by operation name, for the benchmarks. */
export type RequestCounter = {
  /** One command sent: its operation, and its input when the counter classifies (request-class.ts). */
  add(op: string, input?: unknown): void
  snapshot(): Record<string, number>
}
