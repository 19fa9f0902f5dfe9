/**
 * The default fuzz target, all in this process: an in-memory dynalite on 127.0.0.1 (main thread),
 * the hub table, and the hub in a worker thread (hub-worker.ts) with a heap limit, so a request
 * that exhausts memory or wedges the hub is reported and the hub restarted over the same data
 * instead of taking the fuzzer down. `errors()` hands out the hub's error log records since the
 * last call (they name the code that threw behind a 5xx).
 */
import { Worker } from 'node:worker_threads'
import { createDynamoClient } from '../../lib/store/dynamo-client.ts'
import { ensureTable } from '../../lib/store/ensure-table.ts'
import { TABLE } from '../../lib/store/table.ts'
import { startDynalite } from '../local/dynalite-server.ts'
import type { HubWorkerData } from './hub-worker.ts'

export const LOCAL_ADMIN_TOKEN = 'fuzz-admin-token'
export const LOCAL_USER_TOKEN = 'fuzz-user-token'

export type LocalHub = {
  url: string
  restart(): Promise<void>
  /** Error log records of the hub since the last call. */
  errors(): string[]
  /** How the last worker ended, if it did (e.g. out of memory). */
  exitReason(): string | undefined
  close(): Promise<void>
}

export type LocalHubOptions = {
  /** The space the tenant token reaches. */
  userSpace: string
  /** The worker's heap limit (default 1024 MB). */
  heapMb?: number
}

export async function startLocalHub(opts: LocalHubOptions): Promise<LocalHub> {
  const db = await startDynalite({ host: '127.0.0.1' })
  const client = createDynamoClient({
    region: 'us-east-1',
    endpoint: db.endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  })
  const tableName = 'fuzz-hub'
  await ensureTable(client, TABLE, { tableName })
  client.destroy()
  const data: HubWorkerData = {
    endpoint: db.endpoint,
    tableName,
    adminToken: LOCAL_ADMIN_TOKEN,
    userToken: LOCAL_USER_TOKEN,
    userSpace: opts.userSpace,
  }
  let worker: Worker | undefined
  let url = ''
  let exit: string | undefined
  let logs: string[] = []

  const start = () =>
    new Promise<void>((resolve, reject) => {
      exit = undefined
      const w = new Worker(new URL('./hub-worker.ts', import.meta.url), {
        workerData: data,
        resourceLimits: { maxOldGenerationSizeMb: opts.heapMb ?? 1024 },
      })
      worker = w
      w.on('message', (m: { port?: number; error?: string; log?: string }) => {
        if (m.log) {
          if (logs.length < 1000) logs.push(m.log)
        } else if (m.port) {
          url = `http://127.0.0.1:${m.port}`
          resolve()
        } else if (m.error) reject(new Error(`the fuzz hub did not start: ${m.error}`))
      })
      w.on('error', (e) => {
        exit = `${(e as { code?: string }).code ?? 'error'}: ${e.message}`
        reject(e)
      })
      w.on('exit', (code) => {
        exit ??= `exited with code ${code}`
        reject(new Error(`the fuzz hub exited (${exit})`))
      })
    })

  const stop = async () => {
    const w = worker
    worker = undefined
    if (w) await w.terminate().catch(() => undefined)
  }

  await start()
  return {
    get url() {
      return url
    },
    restart: async () => {
      await stop()
      await start()
    },
    errors: () => {
      const out = logs
      logs = []
      return out
    },
    exitReason: () => exit,
    close: async () => {
      await stop()
      await db.close()
    },
  }
}
