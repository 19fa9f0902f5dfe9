/**
 * Test helpers for anything that needs a real store:
 * - `startDynalite()` runs an in-memory dynalite inside the test process on a free loopback port;
 *   call `close()` when done (e.g. in `afterAll`).
 * - `createTestStore(options?)` starts one, creates a uniquely named table from `lib/store/table.ts`,
 *   and returns the store (`objects`, `kv`, `sweepChangeLog`, `client`, `tableName`) plus `close()`.
 *   By default change-log entries are handed out at once (`settleMs: 0`); pass `now`, `settleMs`,
 *   `logRetentionMs`, a `counter` or a `fault` hook to control the rest.
 *
 *   const t = await createTestStore()
 *   afterAll(() => t.close())
 *   await t.objects.create(key, obj)
 */
import { startDynalite as startLocalDynalite } from '../../infra/local/dynalite-server.ts'
import { createDynamoClient, type FaultCall } from '../../lib/store/dynamo-client.ts'
import { createDynamoStore, type DynamoStore } from '../../lib/store/dynamo-store.ts'
import { ensureTable } from '../../lib/store/ensure-table.ts'
import { TABLE } from '../../lib/store/table.ts'
import type { RequestCounter } from '../../lib/store/types.ts'

export type Dynalite = { endpoint: string; close(): Promise<void> }

/**
 * Starts an in-memory dynalite on 127.0.0.1 with a free port: the local stack's
 * (infra/local/dynalite-server.ts), which keeps idle connections open as tests need (no retries in
 * tests, maxAttempts 1: a socket the server closed while a busy test paused was a "read ECONNRESET").
 */
export async function startDynalite(): Promise<Dynalite> {
  const db = await startLocalDynalite({})
  return { endpoint: db.endpoint, close: () => db.close() }
}

export type TestStoreOptions = {
  now?: () => number
  settleMs?: number
  logRetentionMs?: number
  counter?: RequestCounter
  fault?: (call: FaultCall) => void | Promise<void>
}

export type TestStore = DynamoStore & { endpoint: string; close(): Promise<void> }

let tableSeq = 0

/** A store on a fresh table in a fresh in-process dynalite. */
export async function createTestStore(options: TestStoreOptions = {}): Promise<TestStore> {
  const db = await startDynalite()
  const client = createDynamoClient({
    region: 'us-east-1',
    endpoint: db.endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
    ...(options.counter ? { counter: options.counter } : {}),
    ...(options.fault ? { fault: options.fault } : {}),
  })
  tableSeq += 1
  const tableName = `test-${process.pid}-${tableSeq}-${Math.random().toString(36).slice(2, 8)}`
  await ensureTable(client, TABLE, { tableName })
  const store = createDynamoStore({
    client,
    tableName,
    settleMs: options.settleMs ?? 0,
    ...(options.now ? { now: options.now } : {}),
    ...(options.logRetentionMs !== undefined ? { logRetentionMs: options.logRetentionMs } : {}),
  })
  return {
    ...store,
    endpoint: db.endpoint,
    close: async () => {
      client.destroy()
      await db.close()
    },
  }
}
