/**
 * The in-process fuzz target's hub, run in a worker thread (local-hub.ts starts it) so a request
 * that exhausts the heap kills only this isolate, not the fuzzer: the store over the given
 * dynalite endpoint and table, the node server (functions/node-server.ts, the real decode path)
 * on a free loopback port, the bootstrap (root, root:espw, the admin token) and a tenant token
 * scoped to the fuzz space. Posts `{ port }` to the parent once serving, and `{ log }` per error
 * record of the hub's logger.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { startNodeHub } from '../../functions/node-server.ts'
import { registerToken } from '../../lib/auth/tokens.ts'
import { bootstrapHub } from '../../lib/hub/bootstrap.ts'
import { createLogger } from '../../lib/log.ts'
import { createDynamoClient } from '../../lib/store/dynamo-client.ts'
import { createDynamoStore } from '../../lib/store/dynamo-store.ts'

export type HubWorkerData = {
  endpoint: string
  tableName: string
  adminToken: string
  userToken: string
  userSpace: string
}

async function main(): Promise<void> {
  const data = workerData as HubWorkerData
  const client = createDynamoClient({
    region: 'us-east-1',
    endpoint: data.endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  })
  const store = createDynamoStore({ client, tableName: data.tableName, settleMs: 0 })
  const hub = await startNodeHub({
    objects: store.objects,
    kv: store.kv,
    projections: store.projections,
    host: '127.0.0.1',
    // internal errors are what the fuzzer looks for: their records go to the parent, which
    // attaches them to the violation of the request that caused them
    log: createLogger({ level: 'error', sink: (line) => parentPort?.postMessage({ log: line }) }),
  })
  await bootstrapHub(hub.deps, { adminToken: data.adminToken, baseUrl: hub.url })
  await registerToken(store.kv, data.userToken, {
    name: 'fuzz-tenant',
    kind: 'user',
    spaces: [data.userSpace],
  })
  parentPort?.postMessage({ port: hub.port })
}

main().catch((e: unknown) => {
  parentPort?.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) })
})
