/**
 * The Worker entry builds its store, caches and kind hooks per environment: two environments in one
 * process (two tables) are two hubs. An object created through one is not found through the other,
 * while an equal environment object passed anew reaches the same hub.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import worker from '../../functions/index.ts'
import type { Env } from '../../lib/env.ts'
import { createTestStore, type TestStore } from '../helpers/dynalite.ts'

let one: TestStore
let two: TestStore
beforeAll(async () => {
  ;[one, two] = await Promise.all([createTestStore(), createTestStore()])
})
afterAll(() => Promise.all([one?.close(), two?.close()]))

const ADMIN = 'environments-admin'
const ctx = { waitUntil: () => undefined, passThroughOnException: () => undefined }

const envOf = (store: TestStore): Env => ({
  DDB_ENDPOINT: store.endpoint,
  TABLE_NAME: store.tableName,
  ADMIN_TOKEN: ADMIN,
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
  LOG_LEVEL: 'error',
})

async function status(env: Env, method: string, path: string, body?: unknown): Promise<number> {
  const req = new Request(`https://hub.test${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const res = await worker.fetch(
    req as Parameters<typeof worker.fetch>[0],
    env,
    ctx as unknown as ExecutionContext
  )
  await res.arrayBuffer()
  return res.status
}

describe('the Worker entry with two environments in one process', () => {
  it('serves each from its own store', async () => {
    const envOne = envOf(one)
    const envTwo = envOf(two)
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'only-in-one' } }
    // root needs no bootstrap; each environment's first request registers the admin token.
    expect(await status(envOne, 'POST', '/api/v1/namespaces', ns)).toBe(201)
    expect(await status(envOne, 'GET', '/api/v1/namespaces/only-in-one')).toBe(200)
    expect(await status(envTwo, 'GET', '/api/v1/namespaces/only-in-one')).toBe(404)
    expect(await status(envOf(one), 'GET', '/api/v1/namespaces/only-in-one')).toBe(200)
  })
})
