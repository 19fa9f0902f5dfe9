/**
 * The dashboard's views of a space with a Rollout (functions/dashboard/rollouts.ts,
 * cell-revisions.ts; the world: the translate step's Rollout world, four edges in waves canary
 * (c1, c2) and rest (r1, r2), the namespace shop placed everywhere, revisions cut and statuses
 * written as the rollout step would, copies stamped by the real translate step): the matrix says
 * the Rollout's phase, revisions and waves, the row names the Rollout governing its objects,
 * each edge its wave and due revision, each cell the revision its copies hold — read from the
 * mailboxes' stamps, so a wave promoted in the status shows its edges still at the older revision
 * until translation sends the new one; the drill-down and the placement panel say the same; the
 * oldest of two Rollouts selecting the same objects governs them; a stored Rollout that does not
 * decode is shown as invalid and governs nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rolloutsOf } from '../../../functions/dashboard/rollouts.ts'
import { createView } from '../../../functions/dashboard/view.ts'
import { ROLLOUTS } from '../../../lib/apis/gvr.ts'
import { ADMIN_TOKEN, BASE } from '../../helpers/hub.ts'
import {
  client,
  converge,
  createRollout,
  cut,
  type Edge,
  hub,
  keyOf,
  rollout,
  setConfigMap,
  setStatus,
  setUpWorld,
  WS,
} from '../reconcile-translate/rollout-world.ts'
import { uiClient } from './ui-client.ts'

let ui: ReturnType<typeof uiClient>
const q = (params: Record<string, string>) => new URLSearchParams(params).toString()
const EDGES: Edge[] = ['c1', 'c2', 'r1', 'r2']

beforeAll(async () => {
  await setUpWorld()
  await converge()
  ui = uiClient(hub)
  await ui.login(ADMIN_TOKEN)
}, 60_000)
afterAll(async () => {
  await hub?.close()
})

async function matrix() {
  const res = await ui.get(`/ui/api/matrix?${q({ space: WS })}`)
  expect(res.status).toBe(200)
  return res.body
}

/** Per edge name: the revisions of Rollout `shop` its cell of placement `all` holds. */
async function cellRevisions() {
  const m = await matrix()
  const out: Record<string, unknown> = {}
  for (const e of EDGES) out[e] = m.cells.all[await keyOf(e)]?.revisions?.shop
  return out
}

const at = (lowest: number | null, highest = lowest, unstamped = 0) => ({
  lowest,
  highest,
  objects: 2,
  unstamped,
})

describe('the dashboard with a Rollout', () => {
  it('adds nothing to a space without Rollouts', async () => {
    const m = await matrix()
    expect(m.rollouts).toEqual([])
    expect(m.placements[0].rollouts).toEqual([])
    for (const e of m.edges.items) expect(e.rollouts).toBeUndefined()
    for (const cell of Object.values(m.cells.all)) expect(cell).not.toHaveProperty('revisions')
  })

  it('shows a Rollout not adopted yet, its waves, and copies carrying no stamp', async () => {
    await createRollout('shop')
    const m = await matrix()
    expect(m.rollouts).toEqual([
      {
        name: 'shop',
        paused: false,
        waves: [
          expect.objectContaining({ name: 'canary', approval: false, edges: 0 }),
          expect.objectContaining({ name: 'rest', approval: false, edges: 0 }),
        ],
      },
    ])
    expect(m.placements[0].rollouts).toEqual(['shop'])
    const waves = Object.fromEntries(m.edges.items.map((e: any) => [e.syncTarget, e.rollouts.shop]))
    expect(waves).toEqual({
      c1: { wave: 'canary' },
      c2: { wave: 'canary' },
      r1: { wave: 'rest' },
      r2: { wave: 'rest' },
    })
    expect(await cellRevisions()).toEqual({
      c1: at(null, null, 2),
      c2: at(null, null, 2),
      r1: at(null, null, 2),
      r2: at(null, null, 2),
    })
  })

  it('reads each cell’s revision from the stamps of the copies translation sent', async () => {
    await cut(1)
    await setStatus(1, 1, 1)
    await converge()
    expect(await cellRevisions()).toEqual({ c1: at(1), c2: at(1), r1: at(1), r2: at(1) })
    await setConfigMap('a', '3')
    await cut(2)
    await setStatus(1, 2, 1)
    await converge()
    const m = await matrix()
    expect(m.rollouts[0]).toMatchObject({
      name: 'shop',
      phase: 'Progressing',
      revision: 2,
      completedRevision: 1,
      waves: [
        { name: 'canary', revision: 2, from: 1, cut: 1, edges: 2, pending: 2 },
        { name: 'rest', revision: 1 },
      ],
    })
    expect(await cellRevisions()).toEqual({ c1: at(2), c2: at(2), r1: at(1), r2: at(1) })
  })

  it('shows a promoted wave’s edges at the older revision until their copies move', async () => {
    // The status promotes rest to 2; translation has not run, so the mailboxes still hold 1.
    await setStatus(1, 2, 2)
    const m = await matrix()
    const r1 = m.edges.items.find((e: any) => e.syncTarget === 'r1')
    expect(r1.rollouts.shop).toEqual({ wave: 'rest', due: 2 })
    expect(m.rollouts[0].waves[1]).toMatchObject({ name: 'rest', revision: 2 })
    expect(await cellRevisions()).toEqual({ c1: at(2), c2: at(2), r1: at(1), r2: at(1) })
    await converge()
    expect(await cellRevisions()).toEqual({ c1: at(2), c2: at(2), r1: at(2), r2: at(2) })
  })

  it('names each object’s Rollout and revision in the drill-down, and the edge’s wave', async () => {
    await setStatus(1, 2, 1)
    await converge()
    const edge = await keyOf('r1')
    const res = await ui.get(`/ui/api/cell?${q({ space: WS, placement: 'all', edge })}`)
    expect(res.status).toBe(200)
    expect(res.body.edge.rollouts).toEqual({ shop: { wave: 'rest', due: 1 } })
    expect(res.body.rollouts.map((r: any) => r.name)).toEqual(['shop'])
    const objects = Object.fromEntries(res.body.objects.map((o: any) => [o.name, o.rollout]))
    expect(objects).toEqual({
      a: { name: 'shop', revision: 1 },
      old: { name: 'shop', revision: 1 },
    })
    // The copy shown is the one revision 1 holds: a=1 while the source says 3.
    const a = res.body.objects.find((o: any) => o.name === 'a')
    expect(a.copy.data).toEqual({ v: '1' })
  })

  it('lists the governing Rollout and each edge’s wave in the placement panel', async () => {
    const res = await ui.get(`/ui/api/placement?${q({ space: WS, name: 'all' })}`)
    expect(res.status).toBe(200)
    expect(res.body.rollouts).toEqual([
      expect.objectContaining({ name: 'shop', revision: 2, completedRevision: 1 }),
    ])
    const waves = Object.fromEntries(
      res.body.selected.items.map((e: any) => [e.syncTarget, e.rollouts.shop.wave])
    )
    expect(waves).toEqual({ c1: 'canary', c2: 'canary', r1: 'rest', r2: 'rest' })
  })

  it('lets the oldest of two Rollouts selecting the same objects govern them', async () => {
    await createRollout('younger')
    const m = await matrix()
    expect(m.rollouts.map((r: any) => r.name)).toEqual(['shop', 'younger'])
    expect(m.placements[0].rollouts).toEqual(['shop'])
    const cell = m.cells.all[await keyOf('c1')]
    expect(Object.keys(cell.revisions)).toEqual(['shop'])
    await client.delete(WS, ROLLOUTS, 'younger')
  })

  it('shows a stored Rollout that does not decode as invalid, governing nothing', async () => {
    const view = createView(hub.deps, { name: 'admin', kind: 'admin', spaces: [] }, BASE)
    const good = await rollout('shop')
    const broken = { ...good, spec: { ...(good.spec as object), waves: 'everywhere' } }
    const list = view.client.list.bind(view.client)
    view.client.list = (async (space: string, gvr: { resource: string }, ...rest: never[]) =>
      gvr.resource === 'rollouts' ? [broken] : list(space, gvr as never, ...rest)) as never
    const space = await client.space(WS)
    const got = await rolloutsOf(view, space)
    expect(got.views).toEqual([
      { name: 'shop', paused: false, waves: [], invalid: expect.stringContaining('spec.waves') },
    ])
    const objects = (await view.reads.snapshot.space(space.id)).objects
    expect(got.governing(objects)).toEqual([])
    expect(got.wavesAt({ ring: 'canary' }, 'uid')).toEqual({})
  })
})
