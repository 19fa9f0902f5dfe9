/**
 * What the edges view says of the copies each edge holds (functions/dashboard/edge-copies.ts,
 * through `GET /ui/api/edges`), over the summarize tests' world (a ConfigMap and its Namespace
 * placed to e1 and e2, env=prod; e3 holds nothing): counted in the summarize step's states with
 * the worst, so e1 reads ready once it reported both, failed once its agent reports a problem
 * with one, e2 (never heard) stale; a session sees only the copies of the workload spaces it may
 * see.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN } from '../../helpers/hub.ts'
import {
  CFG_REPORTED,
  createWorld,
  IMW,
  placeOneConfigMap,
  type World,
} from '../reconcile-summarize/world.ts'
import { uiClient } from './ui-client.ts'

let w: World
let ui: ReturnType<typeof uiClient>

const NS_REPORTED = {
  group: '',
  version: 'v1',
  resource: 'namespaces',
  namespace: '',
  name: 'app',
  status: { phase: 'Active' },
}

beforeAll(async () => {
  w = await createWorld()
  await placeOneConfigMap(w, 'prod', [{ matchLabels: { env: 'prod' } }])
  await w.heartbeat('e1')
  await w.report('e1', { statuses: [CFG_REPORTED, NS_REPORTED], heartbeat: true })
  ui = uiClient(w.hub)
  await ui.login(ADMIN_TOKEN)
})
afterAll(() => w.close())

const counts = (c: Partial<Record<string, number>>) => ({
  pending: 0,
  applied: 0,
  ready: 0,
  failed: 0,
  removing: 0,
  stale: 0,
  ...c,
})

async function edges(client = ui) {
  const res = await client.get('/ui/api/edges')
  expect(res.status).toBe(200)
  return Object.fromEntries(res.body.items.map((e: any) => [e.syncTarget, e]))
}

describe('the copies an edge holds, in the edges view', () => {
  it('counts them by state with the worst: ready, stale, none', async () => {
    const by = await edges()
    expect(by.e1).toMatchObject({ worst: 'ready', counts: counts({ ready: 2 }), holds: 3 })
    expect(by.e2).toMatchObject({ worst: 'stale', counts: counts({ stale: 2 }), stale: true })
    expect(by.e3).toMatchObject({ worst: null, counts: counts({}) })
  })

  it('reads failed for an edge whose agent reports a problem with one copy', async () => {
    const { group, version, resource, namespace, name } = CFG_REPORTED
    await w.report('e1', {
      problems: [
        {
          group,
          version,
          resource,
          namespace,
          name,
          reason: 'ForeignObject',
          message: 'in the way',
        },
      ],
    })
    const by = await edges()
    expect(by.e1).toMatchObject({ worst: 'failed', counts: counts({ failed: 1, ready: 1 }) })
    expect(by.e1.stale).toBe(false)
  })

  it('counts for a session only the copies of workload spaces it may see', async () => {
    await w.hub.mintToken('inventory-only', [IMW])
    const inv = uiClient(w.hub)
    await inv.login('inventory-only')
    const by = await edges(inv)
    expect(by.e1).toMatchObject({ worst: null, counts: counts({}), holds: 3 })
  })
})
