/**
 * The matrix's rows (functions/dashboard/rows.ts) over the summarize tests' world (e1 and e2
 * env=prod, e1 reported and live, e2 never heard): without a filter a row counts every edge the
 * placement selects, as its status.summary says; with a label filter it counts the matching edges
 * only — their number, the stale ones among them and their copies — while still saying how many
 * edges the placement selects in all, unless more edges match than a request may read, when they
 * count every edge again and say so; edges and copies are separate counts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { matrixOf } from '../../../functions/dashboard/matrix.ts'
import { filteredRowOf } from '../../../functions/dashboard/rows.ts'
import { createView, workloadSpace } from '../../../functions/dashboard/view.ts'
import type { Selected } from '../../../functions/reconcile-summarize/scope.ts'
import { ADMIN_TOKEN, BASE } from '../../helpers/hub.ts'
import {
  CFG_REPORTED,
  createWorld,
  placeOneConfigMap,
  type World,
  WS,
} from '../reconcile-summarize/world.ts'
import { uiClient } from './ui-client.ts'

let w: World
let ui: ReturnType<typeof uiClient>

beforeAll(async () => {
  w = await createWorld()
  await placeOneConfigMap(w, 'prod', [{ matchLabels: { env: 'prod' } }])
  await w.heartbeat('e1')
  await w.report('e1', { statuses: [CFG_REPORTED], heartbeat: true })
  await w.summarize()
  ui = uiClient(w.hub)
  await ui.login(ADMIN_TOKEN)
})
afterAll(() => w.close())

const matrix = async (params: Record<string, string>) => {
  const res = await ui.get(`/ui/api/matrix?${new URLSearchParams({ space: WS, ...params })}`)
  expect(res.status).toBe(200)
  return res.body
}

const counts = (c: Partial<Record<string, number>>) => ({
  pending: 0,
  applied: 0,
  ready: 0,
  failed: 0,
  removing: 0,
  stale: 0,
  ...c,
})

describe('matrix rows', () => {
  it('count every edge without a filter, as the summary does', async () => {
    const m = await matrix({})
    expect(m.rowScope).toBe('all')
    expect(m.placements).toEqual([
      expect.objectContaining({
        name: 'prod',
        destinations: 2,
        staleDestinations: 1,
        allDestinations: 2,
        objectCount: 1,
        totals: counts({ ready: 1, stale: 1 }),
        worst: 'stale',
      }),
    ])
  })

  it('count only the edges a label filter matches, and their copies', async () => {
    const live = await matrix({ labels: 'loc=e1' })
    expect(live.rowScope).toBe('filter')
    expect(live.placements[0]).toMatchObject({
      destinations: 1,
      staleDestinations: 0,
      allDestinations: 2,
      objectCount: 1,
      totals: counts({ ready: 1 }),
      worst: 'ready',
    })
    const stale = await matrix({ labels: 'loc in (e2,e3)' })
    expect(stale.placements[0]).toMatchObject({
      destinations: 1,
      staleDestinations: 1,
      totals: counts({ stale: 1 }),
      worst: 'stale',
    })
    // The window is cut from the same reads: the row agrees with the cells it leaves.
    const [e2] = stale.edges.items
    expect(stale.cells.prod[e2.key].counts).toEqual(stale.placements[0].totals)
    const none = await matrix({ labels: 'loc=nowhere' })
    expect(none.placements[0]).toMatchObject({ destinations: 0, worst: null, allDestinations: 2 })
  })

  it('count the filter with attention too, and page the columns as before', async () => {
    const att = await matrix({ labels: 'env=prod', attention: '1' })
    expect(att.rowScope).toBe('filter')
    expect(att.edges.items.map((e: any) => e.syncTarget)).toEqual(['e2'])
    expect(att.placements[0]).toMatchObject({ destinations: 2, staleDestinations: 1 })
    const second = await matrix({ labels: 'env=prod', limit: '1', offset: '1' })
    expect(second.edges.items.map((e: any) => e.syncTarget)).toEqual(['e2'])
    expect(Object.keys(second.cells.prod)).toEqual([second.edges.items[0].key])
    expect(second.placements[0].totals).toEqual(counts({ ready: 1, stale: 1 }))
  })
})

describe('matrix rows under a filter wider than the rows may read', () => {
  it('count every edge, as without a filter, and say so', async () => {
    const admin = { name: 'admin', kind: 'admin' as const, spaces: [] }
    const view = createView(w.hub.deps, admin, BASE)
    const space = await workloadSpace(view, WS)
    const q = { offset: 0, limit: 50, labels: 'env=prod', attention: false }
    const m = await matrixOf(view, space, q, { filteredRows: 1 })
    expect(m).toMatchObject({ rowScope: 'all', filteredRowsMax: 1 })
    expect(m.edges.total).toBe(2)
    expect(m.placements[0]).toMatchObject({
      destinations: 2,
      allDestinations: 2,
      totals: counts({ ready: 1, stale: 1 }),
    })
    const narrow = await matrixOf(view, space, { ...q, labels: 'loc=e1' }, { filteredRows: 1 })
    expect(narrow).toMatchObject({ rowScope: 'filter', placements: [{ destinations: 1 }] })
  })
})

describe('filteredRowOf', () => {
  const p = {
    placement: {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'EdgePlacement',
      metadata: { name: 'x' },
      spec: {},
      status: {
        conditions: [{ type: 'Ready', status: 'False', reason: 'CopiesFailed' }],
        summary: { destinations: 7 },
      },
    },
    destinations: [],
    objects: [{}, {}, {}],
  } as unknown as Selected
  const edge = (key: string, stale: boolean) => ({ key, stale }) as never

  it('sums the cells of the matching edges and counts the stale ones', () => {
    const row = filteredRowOf(p, {
      edges: [edge('a', false), edge('b', true), edge('c', false)],
      cells: {
        x: {
          a: { worst: 'failed', counts: counts({ failed: 1, ready: 2 }) },
          b: { worst: 'stale', counts: counts({ stale: 3 }) },
        },
      },
    })
    expect(row).toEqual({
      name: 'x',
      ready: 'False',
      readyReason: 'CopiesFailed',
      worst: 'failed',
      destinations: 2,
      staleDestinations: 1,
      allDestinations: 7,
      objectCount: 3,
      totals: counts({ failed: 1, ready: 2, stale: 3 }),
    })
  })
})
