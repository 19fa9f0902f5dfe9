/**
 * Prepares the store before the Worker starts: creates the DynamoDB table on dynalite when it is
 * missing (idempotent), migrates one an earlier release wrote to the current stored format, then
 * bootstraps the hub — spaces `root` and `root:espw` and the admin
 * token — with the same hub code the Worker runs, in this Node process, signing its store
 * requests with the store key when given. Background work started
 * by the bootstrap is awaited, and the DynamoDB client is closed afterwards.
 */

import { readConfig } from '../../lib/env.ts'
import { bootstrapHub } from '../../lib/hub/bootstrap.ts'
import { hubDeps, openStore } from '../../lib/hub/hub-deps.ts'
import type { Logger } from '../../lib/log.ts'
import type { DynamoStore } from '../../lib/store/dynamo-store.ts'
import { ensureTable } from '../../lib/store/ensure-table.ts'
import { TABLE } from '../../lib/store/table.ts'

export type HubSetupOptions = {
  ddbEndpoint: string
  tableName: string
  adminToken: string
  /** The hub's URL, recorded in Workspace status URLs. */
  baseUrl: string
  /** The store key dynalite requires (store-key.ts); absent: dummy credentials. */
  credentials?: { accessKeyId: string; secretAccessKey: string }
  log: Logger
}

export type HubSetupResult = { tableCreated: boolean }

/**
 * Takes a table an earlier release wrote to the current stored format before anything serves it
 * (lib/store/format-migrations.ts), a page at a time with a progress line each 10 pages.
 */
async function migrateTable(store: DynamoStore, log: Logger): Promise<void> {
  let pages = 0
  for (;;) {
    const step = await store.migrate(() => true, 10)
    pages += step.pages
    if (step.pages > 0 || step.from !== step.format)
      log.info('stored format migration', { ...step, pagesSoFar: pages })
    if (step.done) return
  }
}

export async function prepareHub(opts: HubSetupOptions): Promise<HubSetupResult> {
  const cfg = readConfig({
    DDB_ENDPOINT: opts.ddbEndpoint,
    TABLE_NAME: opts.tableName,
    ...(opts.credentials
      ? {
          AWS_ACCESS_KEY_ID: opts.credentials.accessKeyId,
          AWS_SECRET_ACCESS_KEY: opts.credentials.secretAccessKey,
        }
      : {}),
  })
  const handle = { ...openStore(cfg), log: opts.log }
  try {
    const table = await ensureTable(handle.store.client, TABLE, { tableName: opts.tableName })
    opts.log.info('table ready', { table: opts.tableName, created: table.created })
    await migrateTable(handle.store, opts.log)
    const pending = new Set<Promise<unknown>>()
    const deps = hubDeps(handle, (p) => {
      const tracked = p.catch((e: unknown) =>
        opts.log.warn('bootstrap background work failed', { error: e })
      )
      pending.add(tracked)
    })
    await bootstrapHub(deps, { adminToken: opts.adminToken, baseUrl: opts.baseUrl })
    await Promise.all(pending)
    opts.log.info('hub bootstrapped', { spaces: ['root', 'root:espw'] })
    return { tableCreated: table.created }
  } finally {
    handle.store.client.destroy()
  }
}
