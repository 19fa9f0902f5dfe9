/**
 * Direct access to a running stack's dynalite from a test (the endpoint, table and the file of
 * the store key its requests are signed with are in stack.json): minting scoped tokens with lib/auth/tokens.ts, and reading the store to check that
 * a rejected request left nothing behind. Close it when done.
 */

import { readFileSync } from 'node:fs'
import type { StackInfo } from '../../../infra/local/stack-info.ts'
import type { StoreKey } from '../../../infra/local/store-key.ts'
import { type Principal, registerToken } from '../../../lib/auth/tokens.ts'
import { readConfig } from '../../../lib/env.ts'
import { openStore } from '../../../lib/hub/hub-deps.ts'
import type { ProjectionStore } from '../../../lib/store/projection-types.ts'
import type { KvStore, ObjectStore } from '../../../lib/store/types.ts'

export type StoreAccess = {
  objects: ObjectStore
  kv: KvStore
  projections: ProjectionStore
  mintToken(token: string, principal: Principal): Promise<void>
  close(): void
}

export function openStackStore(info: StackInfo): StoreAccess {
  const key = info.dynalite.keyFile
    ? (JSON.parse(readFileSync(info.dynalite.keyFile, 'utf8')) as StoreKey)
    : undefined
  const handle = openStore(
    readConfig({
      DDB_ENDPOINT: info.dynalite.endpoint,
      TABLE_NAME: info.tableName,
      LOG_LEVEL: 'error',
      ...(key
        ? { AWS_ACCESS_KEY_ID: key.accessKeyId, AWS_SECRET_ACCESS_KEY: key.secretAccessKey }
        : {}),
    })
  )
  return {
    objects: handle.store.objects,
    kv: handle.store.kv,
    projections: handle.store.projections,
    mintToken: (token, principal) => registerToken(handle.store.kv, token, principal),
    close: () => handle.store.client.destroy(),
  }
}
