/**
 * /readyz, /livez and /healthz through app.request(): /readyz reads the store (200 `ok`, kube's
 * listing with `?verbose`, 503 with the failed check for a store on a closed port), the other two
 * never touch it; with the store down /metrics is a 503 Status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNodeApp } from '../../../functions/node-server.ts'
import { bootstrapHub } from '../../../lib/hub/bootstrap.ts'
import { createHubOps, type HubOps, storeHubOps } from '../../../lib/metrics/hub-ops.ts'
import { unreachableStore } from '../../helpers/closed-port.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { ADMIN_TOKEN, BASE } from '../../helpers/hub.ts'

let store: TestStore
let down: Awaited<ReturnType<typeof unreachableStore>>

const appWith = (ops: HubOps) =>
  createNodeApp({ objects: store.objects, kv: store.kv, projections: store.projections, ops })

async function get(app: ReturnType<typeof appWith>, path: string, token?: string) {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {}
  const res = await app.app.request(`${BASE}${path}`, { headers })
  return { status: res.status, headers: res.headers, text: await res.text() }
}

beforeAll(async () => {
  store = await createTestStore()
  down = await unreachableStore(store.tableName)
  await bootstrapHub(appWith(storeHubOps(store)).deps, { adminToken: ADMIN_TOKEN, baseUrl: BASE })
})
afterAll(async () => {
  down.close()
  await store.close()
})

describe('/readyz, /livez, /healthz', () => {
  it('/readyz is 200 ok when the store answers, with the listing under ?verbose', async () => {
    const up = appWith(createHubOps({ store }))
    const res = await get(up, '/readyz')
    expect([res.status, res.text]).toEqual([200, 'ok'])
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    const verbose = await get(up, '/readyz?verbose')
    expect(verbose.status).toBe(200)
    expect(verbose.text).toBe('[+]ping ok\n[+]store ok\nreadyz check passed\n')
  })

  it('/readyz is 503 with the failed check when the store is unreachable', async () => {
    const app = appWith(createHubOps({ store: down }))
    for (const path of ['/readyz', '/readyz?verbose=false']) {
      const res = await get(app, path)
      expect(res.status).toBe(503)
      expect(res.text).toBe('[+]ping ok\n[-]store failed: reason withheld\nreadyz check failed\n')
    }
  })

  it('/livez and /healthz answer without the store', async () => {
    const app = appWith(createHubOps({ store: down }))
    for (const p of ['/livez', '/healthz']) {
      const live = await get(app, p)
      expect([live.status, live.text]).toEqual([200, 'ok'])
    }
    const v = await get(app, '/livez?verbose=1')
    expect(v.text).toBe('[+]ping ok\nlivez check passed\n')
    const h = await get(app, '/healthz?verbose')
    expect(h.text).toBe('[+]ping ok\nhealthz check passed\n')
  })

  it('/metrics is a 503 Status when the store cannot answer', async () => {
    const app = appWith(createHubOps({ store: down }))
    const m = await get(app, '/metrics', ADMIN_TOKEN)
    expect(m.status).toBe(503)
    expect(JSON.parse(m.text)).toMatchObject({
      kind: 'Status',
      code: 503,
      reason: 'ServiceUnavailable',
    })
  })
})
