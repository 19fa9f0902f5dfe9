/**
 * A placement planted in a mailbox space is no placement (issue 35, breach 1): an EdgePlacement
 * and a SinglePlacementSlice naming another edge, stored straight into e1's mailbox space (past
 * the hub's refusal, as a release before could have let an edge upsync them), next to a ConfigMap
 * of the edge's choosing. The summarize and where controllers list no key for them and run their
 * key to nothing (no status written, no slice made), and the translate step sends nothing of them
 * to e2, while the real placement of the workload space keeps working.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EDGE_PLACEMENTS, PLACEMENT_SLICES } from '../../../lib/apis/gvr.ts'
import { SERVICE_PROVIDER_OUTCOME } from '../../../lib/hub/service-provider-space.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { whereKey } from '../../../lib/reconcile/keys.ts'
import { storeRaw } from './raw-store.ts'
import { CM, configMap, createWorld, placeOneConfigMap, type World, WS } from './world.ts'

let w: World
let plantedKey = ''

beforeAll(async () => {
  w = await createWorld()
  await placeOneConfigMap(w, 'real', [{ matchLabels: { loc: 'e1' } }])
  const mb = await w.mailbox('e1')
  const e2 = await w.mailbox('e2')
  const real = (await w.client.list(WS, PLACEMENT_SLICES))[0] as KubeObject
  const edge = { spaceId: mb.space.id, group: 'edge.kcp.io' }
  const epUid = '00000000-0000-4000-8000-0000000000aa'
  await storeRaw(
    w.hub,
    { ...edge, resource: 'edgeplacements' },
    {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'EdgePlacement',
      metadata: { name: 'planted', uid: epUid, resourceVersion: '1' },
      spec: { locationSelectors: [{}], namespaceSelector: {} },
    }
  )
  const dest = (real.destinations as Record<string, unknown>[])[0] ?? {}
  await storeRaw(w.hub, { ...edge, resource: 'singleplacementslices' }, {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'SinglePlacementSlice',
    metadata: {
      name: 'planted',
      uid: '00000000-0000-4000-8000-0000000000ab',
      resourceVersion: '1',
      ownerReferences: [
        { apiVersion: 'edge.kcp.io/v1alpha1', kind: 'EdgePlacement', name: 'planted', uid: epUid },
      ],
    },
    destinations: [
      {
        ...dest,
        syncTargetName: 'e2',
        locationName: 'e2',
        syncTargetUID: e2.name.split('-mb-')[1],
      },
    ],
  } as KubeObject)
  await w.client.create(mb.space.path, CM, { ...configMap('default', 'chosen-by-edge') })
  plantedKey = whereKey(mb.space.id, 'planted')
})
afterAll(() => w.close())

describe('a placement planted in a mailbox space', () => {
  it('is no key of the summarize or where step, and its key runs to nothing', async () => {
    for (const step of ['summarize', 'where']) {
      const c = w.step(step)
      const keys = (await c.listKeys(undefined, 1000)).keys
      expect(keys, step).not.toContain(plantedKey)
      expect(
        keys.some((k) => k.endsWith('/real')),
        step
      ).toBe(true)
      expect((await c.reconcile(plantedKey)).outcome, step).toBe(SERVICE_PROVIDER_OUTCOME)
    }
    const mb = await w.mailbox('e1')
    const planted = await w.client.get(mb.space.path, EDGE_PLACEMENTS, 'planted')
    expect(planted?.status).toBeUndefined()
  })

  it('sends nothing of the edge to another edge, while the real placement still reaches e1', async () => {
    await w.placeAll()
    await w.summarize()
    const e2 = await w.mailbox('e2')
    const manifest = await w.hub.deps.projections.getManifest(e2.space.id)
    expect((manifest?.entries ?? []).map((e) => e.name)).not.toContain('chosen-by-edge')
    const e1 = await w.mailbox('e1')
    const own = await w.hub.deps.projections.getManifest(e1.space.id)
    expect((own?.entries ?? []).map((e) => e.name)).toContain('cfg')
    expect((await w.placementStatus('real'))?.destinations).toBe(1)
  })
})
