/**
 * What the benchmark runs against, on 127.0.0.1: one in-memory dynalite in a child process
 * (dynalite-process.ts, so this process's CPU is the hub's alone; `storeCpuMs` reads the child's), a
 * table for the raw baseline and one for the hub (both from lib/store/table.ts), and hubs served over
 * HTTP by startNodeHub on the hub table with its ProjectionStore (so mailbox spaces and the
 * translate step work) — the main one with a DynamoDB request counter, a counter of projection
 * body writes and a log of reconcile runs, extra ones (for other change-log settle times) on
 * demand. `inspect` reads the hub table through an uncounted client, so the benchmark's own checks
 * never show up in the hub's figures. Every hub runs each request as one invocation with the
 * Worker's budget (lib/budget/, degrade mode: an overrun is counted, not refused), recorded in
 * `invocations` (an extra hub may get a budget of its own and its own log). Every hub holds polls
 * as `npm start`'s does: the in-process bell startNodeHub makes (lib/edge/bell.ts, rung by the
 * translate step) and a hold of at most BENCH_HOLD_MAX_SECONDS (`HubDeps.edgeHold`). `close()`
 * stops everything it started.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { type NodeHub, startNodeHub } from '../functions/node-server.ts'
import type { BudgetConfig } from '../lib/budget/invocation.ts'
import { HOLD_DEFAULT_SECONDS } from '../lib/edge/protocol.ts'
import { bootstrapHub } from '../lib/hub/bootstrap.ts'
import type { Logger } from '../lib/log.ts'
import { createDynamoClient, type FaultCall } from '../lib/store/dynamo-client.ts'
import { createDynamoStore, type DynamoStore } from '../lib/store/dynamo-store.ts'
import { ensureTable } from '../lib/store/ensure-table.ts'
import type { ProjectionStore } from '../lib/store/projection-types.ts'
import { createRequestCounter } from '../lib/store/request-counter.ts'
import { TABLE } from '../lib/store/table.ts'
import type { RequestCounter } from '../lib/store/types.ts'
import { startDynaliteProcess } from './dynalite-process.ts'
import { type BodyWrites, createBodyWriteCounter } from './fan-out-body-writes.ts'
import { createReconcileLog, type ReconcileLog } from './fan-out-reconcile-log.ts'
import { createHubClient } from './hub-client.ts'
import { createInvocationLog, type InvocationLog } from './invocation-log.ts'

export const BENCH_TOKEN = 'bench-admin-token'
const RAW_TABLE = 'bench-raw'
const HUB_TABLE = 'bench-hub'
/** The longest hold a bench hub grants: the center's default, as the agents' default asks. */
export const BENCH_HOLD_MAX_SECONDS = HOLD_DEFAULT_SECONDS

export type Counter = ReturnType<typeof createRequestCounter>

export type ServedHub = {
  hub: NodeHub
  client: DynamoDBClient
  store: DynamoStore
  close(): Promise<void>
}

export type BenchStack = {
  endpoint: string
  rawClient: DynamoDBClient
  rawTable: string
  /** Counts the DynamoDB requests of the main hub. */
  counter: Counter
  /** Counts the main hub's PutItems of projection bodies (pk `pb#...`). */
  bodyWrites: BodyWrites
  /** The main hub's reconcile runs (step, key, outcome, duration), from its log. */
  reconciles: ReconcileLog
  /** The hub table's mailbox manifests and bodies, read through an uncounted client. */
  inspect: ProjectionStore
  hub: NodeHub
  /** The main hub's store (the cron runs over it). */
  store: DynamoStore
  /** Every invocation of the hubs (but extra hubs given a budget of their own). */
  invocations: InvocationLog
  /** CPU dynalite's process has used so far, ms (NaN where /proc is missing). */
  storeCpuMs(): number
  /**
   * Another hub on the same table whose store hands out change-log entries after `settleMs`,
   * recording into `invocations` unless given a budget of its own.
   */
  startHub(settleMs: number, budget?: BudgetConfig): Promise<ServedHub>
  close(): Promise<void>
}

type Observe = { counter?: RequestCounter; fault?: (call: FaultCall) => void; log?: Logger }

function client(endpoint: string, observe: Observe = {}): DynamoDBClient {
  return createDynamoClient({
    region: 'us-east-1',
    endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
    ...(observe.counter ? { counter: observe.counter } : {}),
    ...(observe.fault ? { fault: observe.fault } : {}),
  })
}

async function serveHub(
  endpoint: string,
  settleMs: number | undefined,
  observe: Observe & { budget: BudgetConfig }
): Promise<ServedHub> {
  const c = client(endpoint, observe)
  const store = createDynamoStore({
    client: c,
    tableName: HUB_TABLE,
    ...(settleMs !== undefined ? { settleMs } : {}),
  })
  const hub = await startNodeHub({
    objects: store.objects,
    kv: store.kv,
    projections: store.projections,
    host: '127.0.0.1',
    holdMaxSeconds: BENCH_HOLD_MAX_SECONDS,
    budget: observe.budget,
    ...(observe.log ? { log: observe.log } : {}),
  })
  return {
    hub,
    client: c,
    store,
    close: async () => {
      await hub.close()
      c.destroy()
    },
  }
}

/** Starts dynalite, creates both tables, serves the main hub and bootstraps it. */
export async function startBenchStack(): Promise<BenchStack> {
  const db = await startDynaliteProcess()
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
    const bodyWrites = createBodyWriteCounter()
    const reconciles = createReconcileLog()
    const invocations = createInvocationLog()
    const budget: BudgetConfig = { mode: 'degrade', onEnd: invocations.record }
    main = await serveHub(db.endpoint, undefined, {
      counter,
      fault: bodyWrites.observe,
      log: reconciles.logger,
      budget,
    })
    await bootstrapHub(main.hub.deps, { adminToken: BENCH_TOKEN, baseUrl: main.hub.url })
    await main.hub.settle()
    return {
      endpoint: db.endpoint,
      rawClient,
      rawTable: RAW_TABLE,
      counter,
      bodyWrites,
      reconciles,
      inspect: createDynamoStore({ client: rawClient, tableName: HUB_TABLE }).projections,
      hub: main.hub,
      store: main.store,
      invocations,
      storeCpuMs: db.cpuMs,
      startHub: async (settleMs, own) => {
        const served = await serveHub(db.endpoint, settleMs, { budget: own ?? budget })
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

/** What the edge phases need of a stack (bench/edge-types.ts EdgeDeps). */
export function edgeDepsOf(stack: BenchStack, progress: (message: string) => void) {
  return {
    hub: createHubClient(stack.hub.url, BENCH_TOKEN),
    kv: stack.hub.deps.kv,
    counter: stack.counter,
    settle: () => stack.hub.settle(),
    inspect: stack.inspect,
    progress,
  }
}
