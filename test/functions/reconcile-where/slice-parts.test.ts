/**
 * An EdgePlacement whose destinations outgrow one slice, through the where step on a real hub
 * (the budget made small, so seven destinations need three slices): the parts are named from the
 * placement, labelled and owned by it; a rerun writes nothing; a destination stays in its slice as
 * others come and go; an emptied part is deleted; the hub's garbage collection takes the parts
 * with the placement, and the controller's resync finds orphaned parts, whose placement's run
 * deletes them all. The snapshot the translate and summarize steps
 * read takes the parts together as the placement's one slice, and the next batch's snapshot reuses
 * that union until one of the slices moves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { whereController } from '../../../functions/reconcile-where/controller.ts'
import { reconcileWhere } from '../../../functions/reconcile-where/reconcile.ts'
import { destinationBytes } from '../../../functions/reconcile-where/slice-plan.ts'
import {
  EDGE_PLACEMENTS,
  LOCATIONS,
  PLACEMENT_SLICES,
  SYNC_TARGETS,
} from '../../../lib/apis/gvr.ts'
import { createHubClient, type HubClient } from '../../../lib/hub/client.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { createSliceCache } from '../../../lib/placement/slice-cache.ts'
import { createSnapshot } from '../../../lib/placement/snapshot.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'
import { createSpaces, location, syncTarget } from './world.ts'

const IMW = 'root:imw-p'
const WMW = 'root:wmw-p'
let hub: TestHub
let client: HubClient
let imwId: string
let wmwId: string
/** Room for three destinations of this test's shape per slice. */
let budget: number

const run = () =>
  reconcileWhere({ client, log: silentLogger, sliceBudgetBytes: budget }, `${wmwId}/wide`)
const slices = async () =>
  (await client.list(WMW, PLACEMENT_SLICES)).sort((a, b) =>
    a.metadata.name === 'wide' ? -1 : b.metadata.name === 'wide' ? 1 : 0
  )
const held = (s: KubeObject) =>
  ((s.destinations ?? []) as { syncTargetName: string }[]).map((d) => d.syncTargetName)
async function setLabel(n: number, t: string) {
  const l = (await client.get(IMW, LOCATIONS, `edge-${n}`))!
  await client.update(IMW, LOCATIONS, { ...l, metadata: { ...l.metadata, labels: { t } } })
}

beforeAll(async () => {
  hub = await createTestHub()
  client = createHubClient(hub.deps, { fieldManager: 'test' })
  const ids = await createSpaces(client, ['imw-p', 'wmw-p'])
  imwId = ids['imw-p'] ?? ''
  wmwId = ids['wmw-p'] ?? ''
  for (let n = 0; n < 7; n++) {
    await client.create(IMW, LOCATIONS, location(`edge-${n}`, { t: 'big' }))
    await client.create(IMW, SYNC_TARGETS, syncTarget(`edge-${n}`))
  }
  const one = {
    cluster: imwId,
    locationName: 'edge-0',
    syncTargetName: 'edge-0',
    syncTargetUID: '00000000-0000-4000-8000-000000000000',
  }
  budget = destinationBytes(one) * 3
})
afterAll(() => hub.close())

describe('a placement in several slices', () => {
  it('spreads its destinations over the slice named after it and generated parts', async () => {
    const ep = await client.create(WMW, EDGE_PLACEMENTS, {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'EdgePlacement',
      metadata: { name: 'wide' },
      spec: { locationSelectors: [{ matchLabels: { t: 'big' } }] },
    })
    expect((await run()).outcome).toBe('created 3 slices, status updated')
    const all = await slices()
    expect(all.map((s) => s.metadata.name?.startsWith('wide'))).toEqual([true, true, true])
    expect(all[0]?.metadata.name).toBe('wide')
    for (const s of all) {
      expect(s.metadata.labels).toEqual({ 'edge.kcp.io/source-placement': 'wide' })
      expect(s.metadata.ownerReferences?.map((r) => [r.kind, r.name, r.uid])).toEqual([
        ['EdgePlacement', 'wide', ep.metadata.uid],
      ])
    }
    expect(all.flatMap(held).sort()).toEqual([0, 1, 2, 3, 4, 5, 6].map((n) => `edge-${n}`))
    expect(all.map((s) => held(s).length).sort()).toEqual([1, 3, 3])
    expect(await run()).toEqual({ outcome: 'unchanged' })
  })

  it('keeps each destination in its slice as others leave and come, deleting emptied parts', async () => {
    const before = new Map((await slices()).map((s) => [s.metadata.name, held(s)]))
    // Every destination of one part leaves: that part goes, the others are untouched.
    const part = [...before.keys()].find((n) => n !== 'wide' && before.get(n)?.length === 3)!
    const leaving = before.get(part)!
    for (const st of leaving) await setLabel(Number(st.split('-')[1]), 'gone')
    expect((await run()).outcome).toBe('deleted, status updated')
    const after = await slices()
    expect(after.map((s) => s.metadata.name)).not.toContain(part)
    for (const s of after) expect(held(s)).toEqual(before.get(s.metadata.name))
    // They come back: the first slice with room takes them, then a new part.
    for (const st of leaving) await setLabel(Number(st.split('-')[1]), 'big')
    expect((await run()).outcome).toMatch(/^(created, )?(updated( 2 slices)?, )?status updated$/)
    const back = await slices()
    expect(back.flatMap(held).sort()).toEqual([0, 1, 2, 3, 4, 5, 6].map((n) => `edge-${n}`))
    for (const [name, ds] of before)
      if (name !== part) {
        const now = back.find((s) => s.metadata.name === name)
        for (const st of ds) expect(held(now!)).toContain(st)
      }
  })

  it("gives the translate and summarize steps' snapshot the union as the placement's slice", async () => {
    const snapshot = createSnapshot({
      client,
      registry: () => Promise.reject(new Error('not read')),
    })
    const all = await slices()
    const inPart = all.find((s) => s.metadata.name !== 'wide')!
    const st = (inPart.destinations as { syncTargetUID: string }[])[0]!
    const refs = await snapshot.placementsFor(imwId, st.syncTargetUID)
    expect(refs.map((r) => r.placement.metadata.name)).toEqual(['wide'])
    expect(held(refs[0]!.slice as KubeObject).sort()).toEqual(
      [0, 1, 2, 3, 4, 5, 6].map((n) => `edge-${n}`)
    )
    expect(await snapshot.unknownPlacement(wmwId, 'wide')).toBeUndefined()
  })

  it("lets the next batch's snapshot reuse the union until a slice moves", async () => {
    const cache = createSliceCache()
    const batch = () =>
      createSnapshot({
        client,
        registry: () => Promise.reject(new Error('not read')),
        slices: cache,
      })
    const inPart = (await slices()).find((s) => s.metadata.name !== 'wide')!
    const st = (inPart.destinations as { syncTargetUID: string }[])[0]!.syncTargetUID
    const [first] = await batch().placementsFor(imwId, st)
    const [again] = await batch().placementsFor(imwId, st)
    expect(again?.slice).toBe(first?.slice)
    // A destination leaves: its slice is rewritten, and the next batch takes the new union.
    await setLabel(6, 'gone')
    await run()
    const [moved] = await batch().placementsFor(imwId, st)
    expect(moved?.slice).not.toBe(first?.slice)
    expect(held(moved!.slice as KubeObject)).not.toContain('edge-6')
    expect(held(first!.slice as KubeObject)).toContain('edge-6')
    await setLabel(6, 'big')
    await run()
    const [back] = await batch().placementsFor(imwId, st)
    expect(held(back!.slice as KubeObject)).toContain('edge-6')
  })

  it("lets the hub's garbage collection take every part with the placement", async () => {
    await client.delete(WMW, EDGE_PLACEMENTS, 'wide')
    await hub.settle()
    expect(await slices()).toEqual([])
    expect(await run()).toEqual({ outcome: 'absent' })
  })

  it('finds orphaned parts in the resync, and their placement key deletes them all', async () => {
    const owner = {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'EdgePlacement',
      name: 'gone',
      uid: '00000000-0000-4000-8000-00000000000f',
      controller: true,
    }
    for (const name of ['gone', 'gone-x7k2p'])
      await client.create(WMW, PLACEMENT_SLICES, {
        apiVersion: 'edge.kcp.io/v1alpha1',
        kind: 'SinglePlacementSlice',
        metadata: { name, ownerReferences: [owner] },
        destinations: [],
      })
    const { keys } = await whereController(client).listKeys(undefined, 100)
    expect(keys.filter((k) => k.startsWith(`${wmwId}/`))).toEqual([`${wmwId}/gone`])
    const gone = reconcileWhere({ client, log: silentLogger }, `${wmwId}/gone`)
    expect(await gone).toEqual({ outcome: 'deleted 2 slices' })
    expect(await slices()).toEqual([])
  })
})
