/**
 * The Worker's admin token (ADMIN_TOKEN): the real Worker entry over dynalite registers it on the
 * first request and, when the value changes, revokes the previous one; the gate answers 503 with
 * a Status while the old token cannot be revoked and completes the rotation on a later request;
 * a retired value is not taken back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAdminGate } from '../../functions/admin-token.ts'
import worker from '../../functions/index.ts'
import { hashToken } from '../../lib/auth/tokens.ts'
import type { Env } from '../../lib/env.ts'
import type { Logger } from '../../lib/log.ts'
import type { KvStore } from '../../lib/store/types.ts'
import { createTestStore, type TestStore } from '../helpers/dynalite.ts'

let store: TestStore
beforeAll(async () => {
  store = await createTestStore()
})
afterAll(() => store.close())

const ctx = { waitUntil: () => undefined, passThroughOnException: () => undefined }

async function workerStatus(adminToken: string, bearer: string): Promise<number> {
  const env: Env = {
    DDB_ENDPOINT: store.endpoint,
    TABLE_NAME: store.tableName,
    ADMIN_TOKEN: adminToken,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    LOG_LEVEL: 'error',
  }
  const req = new Request('https://hub.test/api/v1/namespaces', {
    headers: { authorization: `Bearer ${bearer}` },
  })
  const res = await worker.fetch(
    req as Parameters<typeof worker.fetch>[0],
    env,
    ctx as unknown as ExecutionContext
  )
  await res.arrayBuffer()
  return res.status
}

function recordingLog(lines: string[]): Logger {
  const log: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
    child: () => log,
  }
  return log
}

describe('the Worker entry', () => {
  it('registers ADMIN_TOKEN, and a changed ADMIN_TOKEN revokes the previous one', async () => {
    expect(await workerStatus('first-admin', 'first-admin')).toBe(200)
    expect(await workerStatus('second-admin', 'second-admin')).toBe(200)
    expect(await workerStatus('second-admin', 'first-admin')).toBe(401)
  })
})

describe('createAdminGate', () => {
  it('answers 503 while the previous token cannot be revoked, then completes', async () => {
    const lines: string[] = []
    const log = recordingLog(lines)
    const gate = createAdminGate()
    expect(await gate(store.kv, 'gate-old', log)).toBeUndefined()
    const failing: KvStore = {
      get: (ns, k) => store.kv.get(ns, k),
      getMany: (ns, keys) => store.kv.getMany(ns, keys),
      put: (ns, k, v, e) => store.kv.put(ns, k, v, e),
      swap: (ns, k, v) => store.kv.swap(ns, k, v),
      list: (ns, p) => store.kv.list(ns, p),
      delete: async () => {
        throw new Error('DynamoDB unavailable')
      },
    }
    const refused = await gate(failing, 'gate-new', log)
    expect(refused?.status).toBe(503)
    expect(await refused?.json()).toMatchObject({ kind: 'Status', code: 503 })
    expect(lines.some((l) => l.startsWith('error admin token rotation incomplete'))).toBe(true)
    expect(await store.kv.get('tokens', await hashToken('gate-old'))).toBeDefined()
    expect(await gate(store.kv, 'gate-new', log)).toBeUndefined()
    expect(await store.kv.get('tokens', await hashToken('gate-old'))).toBeUndefined()
  })

  it('does not take back a retired token, and says so once', async () => {
    const lines: string[] = []
    const stale = createAdminGate()
    expect(await stale(store.kv, 'gate-old', recordingLog(lines))).toBeUndefined()
    expect(await stale(store.kv, 'gate-old', recordingLog(lines))).toBeUndefined()
    expect(lines.filter((l) => l.includes('retired'))).toHaveLength(1)
    expect(await store.kv.get('tokens', await hashToken('gate-old'))).toBeUndefined()
  })

  it('does nothing without a token, and touches the store once per token value', async () => {
    const gate = createAdminGate()
    let reads = 0
    const counting: KvStore = {
      ...store.kv,
      get: (ns, k) => {
        reads++
        return store.kv.get(ns, k)
      },
      put: (ns, k, v, e) => store.kv.put(ns, k, v, e),
      swap: (ns, k, v) => store.kv.swap(ns, k, v),
      list: (ns, p) => store.kv.list(ns, p),
      delete: (ns, k, v) => store.kv.delete(ns, k, v),
    }
    expect(await gate(counting, undefined, recordingLog([]))).toBeUndefined()
    expect(reads).toBe(0)
    await gate(counting, 'gate-new', recordingLog([]))
    const after = reads
    expect(after).toBeGreaterThan(0)
    await gate(counting, 'gate-new', recordingLog([]))
    expect(reads).toBe(after)
  })
})
