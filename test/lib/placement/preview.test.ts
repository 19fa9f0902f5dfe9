/**
 * previewPlacement called directly (as the dashboard does) on a test hub: the Locations it would
 * select (those with a mailbox), its destinations one per SyncTarget with what each receives
 * (objects and the Namespace they need; never kube-root-ca.crt), the objects and skipped ones, the
 * unselected Locations with their reasons, every list bounded; and that it writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeObject } from '../../../lib/apis/decode.ts'
import { EdgePlacementSchema } from '../../../lib/apis/edge-v1alpha1.ts'
import { createHubClient } from '../../../lib/hub/client.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { previewDepsOf, previewPlacement } from '../../../lib/placement/preview.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'
import {
  buildPreviewWorld,
  CONFIGMAPS,
  EDGES,
  edgeName,
  placement,
} from '../../helpers/preview-world.ts'

let hub: TestHub
let ids: { inventory: string; workload: string }

const decoded = (obj: KubeObject) => {
  const res = decodeObject(EdgePlacementSchema, obj)
  if (!res.ok) throw new Error('invalid placement')
  return res.value
}

beforeAll(async () => {
  hub = await createTestHub()
  ids = await buildPreviewWorld(createHubClient(hub.deps, { fieldManager: 'test' }))
})
afterAll(() => hub.close())

describe('previewPlacement', () => {
  it('shows where the placement would go and what each destination would receive', async () => {
    const p = await previewPlacement(previewDepsOf(hub.deps), ids.workload, decoded(placement('p')))
    expect(p.locations.count).toBe(EDGES - 1)
    expect(p.locations.items).toHaveLength(20)
    expect(p.locations.items[0]).toEqual({ cluster: ids.inventory, name: edgeName(0) })
    expect(p.destinations.count).toBe(EDGES)
    expect(p.destinations.items).toHaveLength(20)
    const first = p.destinations.items[0]
    expect(first).toMatchObject({
      cluster: ids.inventory,
      locationName: edgeName(0),
      syncTargetName: edgeName(0),
    })
    expect(first?.mailbox).toBe(`${ids.inventory}-mb-${first?.syncTargetUID}`)
    // 7 ConfigMaps and the Namespace they need; the first five by (group, resource, ns, name).
    expect(first?.objects.count).toBe(CONFIGMAPS + 1)
    expect(first?.objects.items.map((o) => `${o.resource}/${o.namespace ?? ''}/${o.name}`)).toEqual(
      [
        'configmaps/app/cm-0',
        'configmaps/app/cm-1',
        'configmaps/app/cm-2',
        'configmaps/app/cm-3',
        'configmaps/app/cm-4',
      ]
    )
    expect(p.objects.count).toBe(CONFIGMAPS)
    expect(p.objects.items[0]).toEqual({
      group: '',
      version: 'v1',
      resource: 'configmaps',
      namespace: 'app',
      name: 'cm-0',
    })
    expect(p.skipped).toEqual({
      count: 1,
      items: [
        {
          group: '',
          resource: 'configmaps',
          namespace: 'app',
          name: 'kube-root-ca.crt',
          reason: 'SystemInfrastructure',
        },
      ],
    })
    expect(p.unselectedLocationCount).toBe(2)
    expect(p.unselectedLocations?.map((u) => `${u.name} ${u.reason}`)).toEqual([
      `${edgeName(EDGES - 1)} NoMailbox`,
      'lab SelectorMismatch',
    ])
  })

  it('names the implied Namespace among what a destination receives', async () => {
    const ep = decoded({
      ...placement('one'),
      spec: {
        locationSelectors: [{ matchLabels: { env: 'prod' } }],
        namespaceSelector: { matchLabels: { team: 'b' } },
      },
    })
    const p = await previewPlacement(previewDepsOf(hub.deps), ids.workload, ep)
    expect(p.destinations.items[0]?.objects).toEqual({
      count: 2,
      items: [
        { group: '', version: 'v1', resource: 'configmaps', namespace: 'other', name: 'elsewhere' },
        { group: '', version: 'v1', resource: 'namespaces', name: 'other' },
      ],
    })
  })

  it('writes nothing', async () => {
    // A list's resourceVersion is the store's newest: any write would move it.
    const rv = async () =>
      (await hub.call('GET', '/api/v1/namespaces')).body.metadata.resourceVersion as string
    const at = await rv()
    await previewPlacement(previewDepsOf(hub.deps), ids.workload, decoded(placement('p')))
    expect(await rv()).toBe(at)
  })
})
