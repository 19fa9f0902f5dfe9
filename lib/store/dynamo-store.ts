/**
 * The DynamoDB implementation of the store contract (`types.ts`): `createDynamoStore` wires an
 * ObjectStore (object-writes, object-reads, change-log), a KvStore, the ProjectionStore of mailbox
 * manifests and bodies (projection-store.ts, projection-types.ts) and the change-log sweep (which
 * also removes unreferenced projection bodies) over one table whose layout is described in
 * `keys.ts`. Only single-item conditional writes are used (dynalite has no transactions), a write
 * recognizes its own resent attempt by its rv (object-writes.ts), and watch is served by polling the change log, whose entries are handed
 * out `settleMs` after their rv was issued (change-log.ts); an idle poller asks the change signal
 * (change-signal.ts, one per store) before polling again.
 * Known limits: the resourceVersion counter is one hot item; a crash between an object write and
 * its log entry loses that watch event (the log put itself is sent again on failure; a budget never
 * cuts between them: object-writes.ts reserves both; `checkLog` finds such an object); a delete
 * whose response was lost and that the SDK sends again answers NotFound and logs no DELETED
 * event (the removed item cannot be told from one removed by someone else); a list's later pages are read
 * live, not from a snapshot; a write whose rv was issued before a list's counter read but that
 * lands after the list's Query is in neither the list nor a watch from the list's rv.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { createChangeListCache } from './change-list-cache.ts'
import { readChanges } from './change-log.ts'
import { createChangeSignal } from './change-signal.ts'
import { DEFAULT_LOG_RETENTION_MS, DEFAULT_SETTLE_MS, type StoreContext } from './context.ts'
import { type MigrationStep, migrateStep } from './format-migrations.ts'
import { createKvStore } from './kv-store.ts'
import { resumePoint } from './list-marks.ts'
import { checkLog, type LogCheckReport } from './log-check.ts'
import { readCurrentRv } from './meta-items.ts'
import { createMetricItems, type MetricItems } from './metric-items.ts'
import { getObject, getObjects, listObjects } from './object-reads.ts'
import { createObject, deleteObject, updateObject } from './object-writes.ts'
import { pingStore } from './ping.ts'
import { createProjectionStore } from './projection-store.ts'
import {
  type BodySweepState,
  type BodySweepStep,
  sweepBodies,
  sweepBodiesStep,
} from './projection-sweep.ts'
import type { ProjectionStore } from './projection-types.ts'
import { shareChangeReads } from './shared-change-reads.ts'
import { type SweepOptions, type SweepResult, sweepChangeLog } from './sweep.ts'
import type { KvStore, ObjectStore } from './types.ts'

/** How old a change-log read may be to answer another watch of the collection (ms). */
export const DEFAULT_SHARE_READS_MS = 100

export type DynamoStoreOptions = {
  client: DynamoDBClient
  tableName: string
  /** How long change-log entries are kept; default 15 minutes. */
  logRetentionMs?: number
  /** How long a change-log entry waits before changes() hands it out; default 1 s. */
  settleMs?: number
  /** Clock in ms since the epoch; default Date.now. */
  now?: () => number
  /**
   * How old (ms) a collection's change-log read may be to answer another watch of it in this
   * isolate (shared-change-reads.ts); default 100, 0 shares nothing.
   */
  shareReadsMs?: number
}

export type DynamoStore = {
  objects: ObjectStore
  kv: KvStore
  projections: ProjectionStore
  /**
   * Deletes change-log entries past retention and unreferenced blobs; raises the watermark. Then
   * deletes projection bodies no manifest or log entry references that are older than the store's
   * retention (by the store's clock; `retentionMs` and `now` apply to the log only).
   */
  sweepChangeLog(options?: SweepOptions): Promise<SweepResult>
  /** Bounded steps of the two sweeps, for the cron: the log alone, and a projection pass's step. */
  sweeps: {
    changeLog(options: SweepOptions): Promise<SweepResult>
    bodies(
      state: BodySweepState | undefined,
      room: (cost: number) => boolean
    ): Promise<BodySweepStep>
  }
  /**
   * One bounded step of the migration to the current stored format (format-migrations.ts): pages
   * while `room` allows, at most `maxPages`. Done at once on a current table (one GetItem).
   */
  migrate(room: (cost: number) => boolean, maxPages?: number): Promise<MigrationStep>
  /** The Worker's aggregated metric items (metric-items.ts). */
  metrics: MetricItems
  /** Compares the change log with the stored objects (log-check.ts; scans the whole table). */
  checkLog(): Promise<LogCheckReport>
  /** Resolves when the table answered a read within `timeoutMs` (ping.ts). */
  ping(timeoutMs: number): Promise<void>
  tableName: string
  client: DynamoDBClient
}

export function createDynamoStore(options: DynamoStoreOptions): DynamoStore {
  const ctx: StoreContext = {
    client: options.client,
    table: options.tableName,
    now: options.now ?? Date.now,
    retentionMs: options.logRetentionMs ?? DEFAULT_LOG_RETENTION_MS,
    settleMs: options.settleMs ?? DEFAULT_SETTLE_MS,
    changeLists: createChangeListCache(),
  }
  const projections = createProjectionStore(ctx)
  const pollDelay = createChangeSignal(ctx)
  const objects: ObjectStore = {
    get: (key) => getObject(ctx, key),
    getMany: (keys) => getObjects(ctx, keys),
    create: (key, obj) => createObject(ctx, key, obj),
    update: (key, obj, expectedRv) => updateObject(ctx, key, obj, expectedRv),
    delete: (key, expectedRv) => deleteObject(ctx, key, expectedRv),
    list: (opts) => listObjects(ctx, opts),
    changes: shareChangeReads((opts) => readChanges(ctx, opts, projections.getBodies), {
      now: ctx.now,
      windowMs: options.shareReadsMs ?? DEFAULT_SHARE_READS_MS,
      retentionMs: ctx.retentionMs,
    }),
    resumePoint: (c, rv) => resumePoint(ctx, c, rv),
    currentRv: () => readCurrentRv(ctx),
    pollDelay,
  }
  return {
    objects,
    kv: createKvStore(ctx),
    projections,
    sweepChangeLog: async (opts) => {
      const result = await sweepChangeLog(ctx, opts)
      await sweepBodies(ctx, opts?.maxPages)
      return result
    },
    checkLog: () => checkLog(ctx),
    sweeps: {
      changeLog: (opts) => sweepChangeLog(ctx, opts),
      bodies: (state, room) => sweepBodiesStep(ctx, state, room),
    },
    migrate: (room, maxPages) => migrateStep(ctx, room, maxPages),
    metrics: createMetricItems(ctx),
    ping: (timeoutMs) => pingStore(ctx, timeoutMs),
    tableName: options.tableName,
    client: options.client,
  }
}
