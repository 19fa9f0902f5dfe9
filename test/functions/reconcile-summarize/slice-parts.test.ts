/**
 * A placement whose destinations sit in two slices (the slice named after it and a part, as the
 * where step writes them past one object's size) is the same placement to every step downstream:
 * split by hand after everything settled, the where step keeps the split (a destination stays in
 * the slice that holds it), translate writes nothing, summarize counts all three destinations and
 * writes nothing new, and an edge in the part still reports into the placement's summary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PLACEMENT_SLICES } from '../../../lib/apis/gvr.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { CFG_REPORTED, createWorld, placeOneConfigMap, type World, WS } from './world.ts'

let w: World
type Dest = { syncTargetName: string }

beforeAll(async () => {
  w = await createWorld()
  await placeOneConfigMap(w, 'wide', [{ matchExpressions: [{ key: 'env', operator: 'Exists' }] }])
  for (const e of ['e1', 'e2', 'e3'] as const) await w.heartbeat(e)
  await w.summarize()
}, 120_000)
afterAll(() => w?.close())

const outcomes = (lines: string[]) => lines.map((l) => l.split(' ').slice(1).join(' '))

describe('a placement split over two slices', () => {
  it('changes nothing downstream when its slice is split in two', async () => {
    const before = await w.placementStatus('wide')
    expect(before).toMatchObject({ destinations: 3, objectCount: 1 })
    const slice = (await w.client.get(WS, PLACEMENT_SLICES, 'wide')) as KubeObject
    const all = slice.destinations as Dest[]
    expect(all.map((d) => d.syncTargetName)).toEqual(['e1', 'e2', 'e3'])
    // e3 moves to a part, as the where step would have put it past the size budget.
    await w.client.update(WS, PLACEMENT_SLICES, { ...slice, destinations: all.slice(0, 2) })
    await w.client.create(WS, PLACEMENT_SLICES, {
      apiVersion: slice.apiVersion,
      kind: slice.kind,
      metadata: {
        name: 'wide-x7k2p',
        labels: { 'edge.kcp.io/source-placement': 'wide' },
        ownerReferences: slice.metadata.ownerReferences ?? [],
      },
      destinations: all.slice(2),
    })
    expect(outcomes(await w.runAll(w.step('where')))).toEqual(['unchanged'])
    expect(outcomes(await w.runAll(w.step('translate')))).toEqual([
      'placements 1: unchanged',
      'placements 1: unchanged',
      'placements 1: unchanged',
    ])
    await w.summarize()
    expect(await w.placementStatus('wide')).toEqual(before)
  })

  it("counts a report from the part's edge in the placement's summary", async () => {
    await w.report('e3', {
      statuses: [CFG_REPORTED],
    })
    await w.summarize()
    const s = await w.placementStatus('wide')
    expect(s.destinations).toBe(3)
    expect(s.totals.applied + s.totals.ready).toBeGreaterThanOrEqual(1)
    expect(s.totals.pending).toBe(2)
  })
})
