/**
 * What the benchmark runs against, all in this process on 127.0.0.1: one in-memory dynalite, a
 * table for the raw baseline and one for the hub (both from infra/table.ts), and hubs served over
 * HTTP by startNodeHub on the hub table — the main one with a DynamoDB request counter, extra ones
 * (for other change-log settle times) on demand. `close()` stops everything it started.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { type NodeHub, startNodeHub } from '../functions/node-server.ts'
import { startDynalite } from '../infra/local/dynalite-server.ts'
import { TABLE } from '../infra/table.ts'
import { bootstrapHub } from '../lib/hub/bootstrap.ts'
import { createDynamoClient } from '../lib/store/dynamo-client.ts'
import { createDynamoStore } from '../lib/store/dynamo-store.ts'
import { ensureTable } from '../lib/store/ensure-table.ts'
import { createRequestCounter } from '../lib/store/request-counter.ts'
import type { RequestCounter } from '../lib/store/types.ts'

export const BENCH_TOKEN = 'bench-admin-token'
const RAW_TABLE = 'bench-raw'
const HUB_TABLE = 'bench-hub'

export type Counter = ReturnType<typeof createRequestCounter>

export type ServedHub = { hub: NodeHub; client: DynamoDBClient; close(): Promise<void> }

export type BenchStack = {
  endpoint: string
  rawClient: DynamoDBClient
  rawTable: string
  /** Counts the DynamoDB requests of the main hub. */
  counter: Counter
  hub: NodeHub
  /** Another hub on the same table whose store hands out change-log entries after `settleMs`. */
  startHub(settleMs: number): Promise<ServedHub>
  close(): Promise<void>
}

function client(endpoint: string, counter?: RequestCounter): DynamoDBClient {
  return createDynamoClient({
    region: 'us-east-1',
    endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
    ...(counter ? { counter } : {}),
  })
}

async function serveHub(
  endpoint: string,
  settleMs: number | undefined,
  counter?: RequestCounter
): Promise<ServedHub> {
  const c = client(endpoint, counter)
  const store = createDynamoStore({
    client: c,
    tableName: HUB_TABLE,
    ...(settleMs !== undefined ? { settleMs } : {}),
  })
  const hub = await startNodeHub({ objects: store.objects, kv: store.kv, host: '127.0.0.1' })
  return {
    hub,
    client: c,
    close: async () => {
      await hub.close()
      c.destroy()
    },
  }
}

/** Starts dynalite, creates both tables, serves the main hub and bootstraps it. */
export async function startBenchStack(): Promise<BenchStack> {
  const db = await startDynalite({ host: '127.0.0.1' })
  const rawClient = client(db.endpoint)
  const extra: ServedHub[] = []
  let main: ServedHub | undefined
  const close = async () => {
    for (const h of [...extra, ...(main ? [main] : [])]) await h.close().catch(() => undefined)
    rawClient.destroy()
    await db.close()
  }
  try {
    await ensureTable(rawClient, TABLE, { tableName: RAW_TABLE })
    await ensureTable(rawClient, TABLE, { tableName: HUB_TABLE })
    const counter = createRequestCounter()
    main = await serveHub(db.endpoint, undefined, counter)
    await bootstrapHub(main.hub.deps, { adminToken: BENCH_TOKEN, baseUrl: main.hub.url })
    await main.hub.settle()
    return {
      endpoint: db.endpoint,
      rawClient,
      rawTable: RAW_TABLE,
      counter,
      hub: main.hub,
      startHub: async (settleMs) => {
        const served = await serveHub(db.endpoint, settleMs)
        extra.push(served)
        return {
          ...served,
          close: async () => {
            extra.splice(extra.indexOf(served), 1)
            await served.close()
          },
        }
      },
      close,
    }
  } catch (e) {
    await close()
    throw e
  }
}
