/**
 * The where step over invalid stored objects (written straight to the store, past the API): an
 * EdgePlacement that does not decode is reported (one warning naming the step, its key and the
 * issue's path) and its key left alone — no slice made, none deleted — while a valid sibling
 * placement is resolved; a Location that does not decode is reported and selects nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reconcileWhere } from '../../../functions/reconcile-where/reconcile.ts'
import { EDGE_PLACEMENTS, LOCATIONS, PLACEMENT_SLICES } from '../../../lib/apis/gvr.ts'
import {
  invalidReports,
  recorder,
  storeRaw,
  type Warning,
} from '../reconcile-summarize/raw-store.ts'
import { createWorld, IMW, placement, type World, WS } from '../reconcile-summarize/world.ts'

let w: World
let ws = ''
const warnings: Warning[] = []
const where = (name: string) =>
  reconcileWhere({ client: w.client, log: recorder(warnings) }, `${ws}/${name}`)

beforeAll(async () => {
  w = await createWorld()
  ws = (await w.client.space(WS)).id
  const imw = (await w.client.space(IMW)).id
  await w.client.create(
    WS,
    EDGE_PLACEMENTS,
    placement('good', {
      locationSelectors: [{ matchLabels: { env: 'prod' } }],
    })
  )
  const edge = { spaceId: ws, group: 'edge.kcp.io', resource: 'edgeplacements' }
  await storeRaw(w.hub, edge, {
    ...placement('bad', { locationSelectors: [{ matchLabels: { env: 7 } }] }),
    metadata: { name: 'bad', uid: 'u-bad' },
  })
  // A prod Location without spec.resource: invalid, so it selects nothing.
  await storeRaw(
    w.hub,
    { spaceId: imw, group: 'edge.kcp.io', resource: 'locations' },
    {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'Location',
      metadata: { name: 'broken', uid: 'u-broken', labels: { env: 'prod' } },
      spec: { instanceSelector: {} },
    }
  )
}, 120_000)
afterAll(() => w?.close())

describe('where over invalid stored objects', () => {
  it('reports an invalid EdgePlacement and leaves its key alone', async () => {
    expect(await where('bad')).toEqual({ outcome: 'invalid EdgePlacement: skipped' })
    expect(await w.client.get(WS, PLACEMENT_SLICES, 'bad')).toBeUndefined()
    const bad = invalidReports(warnings, 'where').filter((r) => r.fields.key === `${ws}/bad`)
    expect(bad).toHaveLength(1)
    expect(bad[0]?.fields).toMatchObject({
      kind: 'EdgePlacement',
      issues: [{ path: 'spec.locationSelectors[0].matchLabels.env' }],
    })
  })

  it('resolves the valid sibling, reporting the invalid Location and skipping it', async () => {
    warnings.length = 0
    expect((await where('good')).outcome).toContain('created')
    const slice = await w.client.get(WS, PLACEMENT_SLICES, 'good')
    expect(slice?.destinations).toEqual([
      expect.objectContaining({ syncTargetName: 'e1' }),
      expect.objectContaining({ syncTargetName: 'e2' }),
    ])
    const good = await w.client.get(WS, EDGE_PLACEMENTS, 'good')
    expect(good?.status).toMatchObject({ matchingLocationCount: 2 })
    const locs = invalidReports(warnings, 'where').filter((r) => r.fields.kind === 'Location')
    expect(locs).toHaveLength(1)
    expect(locs[0]?.fields).toMatchObject({ issues: [{ path: 'spec.resource' }] })
    expect((await w.client.list(IMW, LOCATIONS)).map((l) => l.metadata.name)).toContain('broken')
  })
})
