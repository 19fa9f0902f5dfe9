/**
 * A hub for in-process API tests: a fresh dynalite-backed store, the hono app over it (called with
 * `app.request()`; mailbox spaces serve the projected copies of `deps.projections`), the bootstrap
 * (root, root:espw, an admin token), and small request helpers that add the token and JSON bodies.
 * Every request runs as one invocation with the Worker's budget in strict mode (lib/budget/): a
 * request that needs more than 1,000 subrequests fails, and test/setup/budget.ts fails the test.
 */

import { createNodeApp } from '../../functions/node-server.ts'
import { registerToken } from '../../lib/auth/tokens.ts'
import type { BudgetConfig } from '../../lib/budget/invocation.ts'
import { bootstrapHub } from '../../lib/hub/bootstrap.ts'
import type { RequestCounter } from '../../lib/store/types.ts'
import { createTestStore, type TestStore } from './dynalite.ts'

export const ADMIN_TOKEN = 'test-admin-token'
export const BASE = 'http://hub.test'

export type TestHub = Awaited<ReturnType<typeof createTestHub>>

/**
 * `budget` replaces the default strict budget of 1,000 subrequests per request; `settleMs` is the
 * store's (default 0: change-log entries are handed out at once); `counter` counts its requests.
 */
export async function createTestHub(
  opts: { budget?: BudgetConfig; settleMs?: number; counter?: RequestCounter } = {}
) {
  const store: TestStore = await createTestStore({
    ...(opts.settleMs === undefined ? {} : { settleMs: opts.settleMs }),
    ...(opts.counter ? { counter: opts.counter } : {}),
  })
  const { app, deps, settle } = createNodeApp({
    objects: store.objects,
    kv: store.kv,
    projections: store.projections,
    budget: opts.budget ?? { mode: 'strict' },
  })
  await bootstrapHub(deps, { adminToken: ADMIN_TOKEN, baseUrl: BASE })

  async function call(
    method: string,
    path: string,
    body?: unknown,
    opts: { token?: string | null; contentType?: string; accept?: string } = {}
  ): Promise<{ status: number; body: any; headers: Headers }> {
    const headers: Record<string, string> = {}
    const token = opts.token === undefined ? ADMIN_TOKEN : opts.token
    if (token !== null) headers.authorization = `Bearer ${token}`
    if (opts.accept) headers.accept = opts.accept
    let payload: string | undefined
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body)
      headers['content-type'] = opts.contentType ?? 'application/json'
    }
    const res = await app.request(`${BASE}${path}`, {
      method,
      headers,
      ...(payload !== undefined ? { body: payload } : {}),
    })
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = JSON.parse(text)
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed, headers: res.headers }
  }

  return {
    store,
    app,
    deps,
    settle,
    call,
    mintToken: (token: string, spaces: string[]) =>
      registerToken(store.kv, token, { name: `user-${token}`, kind: 'user', spaces }),
    close: async () => {
      await settle()
      await store.close()
    },
  }
}
