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
import type { AddressInfo } from 'node:net'
import dynalite from 'dynalite'
import { createDynamoClient, type FaultCall } from '../../lib/store/dynamo-client.ts'
import { createDynamoStore, type DynamoStore } from '../../lib/store/dynamo-store.ts'
import { ensureTable } from '../../lib/store/ensure-table.ts'
import { TABLE } from '../../lib/store/table.ts'
import type { RequestCounter } from '../../lib/store/types.ts'

export type Dynalite = { endpoint: string; close(): Promise<void> }

/** Starts an in-memory dynalite on 127.0.0.1 with a free port. */
export async function startDynalite(): Promise<Dynalite> {
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 })
  // Idle connections stay open until close(), which ends them. With Node's default of 5 s the
  // server may close a socket just as the client (no retries in tests: maxAttempts 1) sends on it,
  // a "read ECONNRESET" that a busy test process hits when a test pauses longer than that.
  server.keepAliveTimeout = 0
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()))
      }),
  }
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
