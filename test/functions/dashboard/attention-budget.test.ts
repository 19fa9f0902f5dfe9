/**
 * The matrix's "needs attention" scan over 1,100 edges none of which needs attention (fleet.ts),
 * its store requests counted through the injected budget: one request scans only what stays well
 * inside the budget — the subrequests it may use are half of the 1,000 — and answers where to go
 * on (`next`); the page's further requests, each bounded alike, cover every edge and find none.
 * Before, one request scanned up to 1,000 edges at three or four subrequests each and ran past
 * the budget (a 429 in strict mode).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SHARES } from '../../../lib/budget/limits.ts'
import { ADMIN_TOKEN } from '../../helpers/hub.ts'
import { createFleet, FLEET_SPACE, type Fleet } from './fleet.ts'
import { uiClient } from './ui-client.ts'

const EDGES = 1_100
const BUDGET = 1_000

let fleet: Fleet
let ui: ReturnType<typeof uiClient>

beforeAll(async () => {
  fleet = await createFleet(EDGES)
  ui = uiClient(fleet.hub)
  await ui.login(ADMIN_TOKEN)
}, 900_000)
afterAll(() => fleet?.close())

/** One matrix request and the subrequests it made. */
async function matrix(params: Record<string, string>) {
  const before = fleet.stats.length
  const res = await ui.get(
    `/ui/api/matrix?${new URLSearchParams({ space: FLEET_SPACE, ...params })}`
  )
  const mine = fleet.stats.slice(before).filter((s) => s.kind === 'api')
  expect(mine, 'one invocation per request').toHaveLength(1)
  return { res, used: mine[0]?.subrequests ?? 0 }
}

describe('needs attention over 1,100 edges', () => {
  it('one window of 100 edges without the filter is the cost a scan is measured against', async () => {
    const { res, used } = await matrix({ limit: '100' })
    expect(res.status).toBe(200)
    expect(res.body.edges.items).toHaveLength(100)
    expect(Object.values(res.body.cells.wide).every((c: any) => c.worst === 'ready')).toBe(true)
    // Three or four subrequests an edge, as the dashboard's page says.
    expect(used).toBeGreaterThan(100)
    expect(used).toBeLessThan(BUDGET * SHARES.attentionScan)
  })

  it('each request stays within its share of the budget; the pages cover every edge', async () => {
    let offset = 0
    let requests = 0
    const found: unknown[] = []
    for (;;) {
      const { res, used } = await matrix({ limit: '100', attention: '1', offset: String(offset) })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      requests++
      expect(used).toBeLessThanOrEqual(BUDGET * SHARES.attentionScan)
      found.push(...res.body.edges.items)
      expect(res.body.edges).toMatchObject({ total: EDGES, offset })
      expect(res.body.edges.scanned).toBeGreaterThan(0)
      if (res.body.edges.next === undefined) {
        expect(offset + res.body.edges.scanned).toBe(EDGES)
        break
      }
      expect(res.body.edges.next).toBe(offset + res.body.edges.scanned)
      offset = res.body.edges.next
      expect(requests).toBeLessThan(EDGES)
    }
    expect(found).toEqual([])
    expect(requests).toBeGreaterThan(1)
  })
})
