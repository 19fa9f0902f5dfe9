/**
 * The where step under grants (lib/tenancy/): once root holds a PlacementGrant, a workload space
 * places only onto the Locations its grants list — a tenant's own Location labelled like a real
 * edge captures nothing, a Location of an inventory it is not granted is neither matched nor listed
 * as unselected (its labels never reach the tenant), and a space no grant covers places nowhere.
 * Before any grant (single-team), every Location counts, as it always did.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reconcileWhere } from '../../../functions/reconcile-where/reconcile.ts'
import {
  EDGE_PLACEMENTS,
  INVENTORIES,
  LOCATIONS,
  PLACEMENT_GRANTS,
  PLACEMENT_SLICES,
  SYNC_TARGETS,
} from '../../../lib/apis/gvr.ts'
import { createHubClient, type HubClient } from '../../../lib/hub/client.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'
import { createSpaces, location, syncTarget } from './world.ts'

let hub: TestHub
let client: HubClient
let ids: Record<string, string>

const placement = (name: string): KubeObject => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'EdgePlacement',
  metadata: { name },
  spec: { locationSelectors: [{ matchLabels: { 'loc-name': 'florin' } }] },
})
const grant = (name: string, spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'tenancy.edgeplane.io/v1alpha1',
  kind: 'PlacementGrant',
  metadata: { name },
  spec: spec as KubeObject['spec'],
})
const run = (space: string, name: string) =>
  reconcileWhere({ client, log: silentLogger }, `${ids[space]}/${name}`)
async function where(space: string, name: string): Promise<string[]> {
  const s = await client.get(`root:${space}`, PLACEMENT_SLICES, name)
  const ds = (s?.destinations ?? []) as { cluster: string; syncTargetName: string }[]
  return ds.map((d) => `${d.cluster === ids['imw-1'] ? 'imw-1' : d.cluster}/${d.syncTargetName}`)
}
const statusOf = async (space: string, name: string) =>
  (await client.get(`root:${space}`, EDGE_PLACEMENTS, name))?.status as
    | { matchingLocationCount?: number; unselectedLocations?: { message: string }[] }
    | undefined

beforeAll(async () => {
  hub = await createTestHub()
  client = createHubClient(hub.deps, { fieldManager: 'test' })
  ids = await createSpaces(client, ['imw-1', 'imw-2', 'team-a', 'team-b', 'team-c'])
  await client.create('root:imw-1', LOCATIONS, location('florin', { 'loc-name': 'florin' }))
  await client.create('root:imw-1', SYNC_TARGETS, syncTarget('florin'))
  await client.create(
    'root:imw-2',
    LOCATIONS,
    location('secret', { 'loc-name': 'florin', secret: 'b-1234' })
  )
  await client.create('root:imw-2', SYNC_TARGETS, syncTarget('secret'))
  // tenant A's fake edge, labelled like the real one
  await client.create('root:team-a', LOCATIONS, location('fake', { 'loc-name': 'florin' }))
  await client.create('root:team-a', SYNC_TARGETS, syncTarget('fake'))
  for (const t of ['team-a', 'team-b', 'team-c'])
    await client.create(`root:${t}`, EDGE_PLACEMENTS, placement('p'))
})
afterAll(() => hub.close())

describe('where step: placement is granted', () => {
  it('single-team (no grant in root): every Location counts, as before', async () => {
    await run('team-b', 'p')
    expect((await where('team-b', 'p')).sort()).toEqual(
      [`${ids['imw-2']}/secret`, `${ids['team-a']}/fake`, 'imw-1/florin'].sort()
    )
  })
  it('granted: only the granted inventory Locations; the fake edge and imw-2 are unseen', async () => {
    await client.create('root', INVENTORIES, {
      apiVersion: 'tenancy.edgeplane.io/v1alpha1',
      kind: 'Inventory',
      metadata: { name: 'imw-1' },
      spec: { space: 'root:imw-1' },
    })
    await client.create('root', INVENTORIES, {
      apiVersion: 'tenancy.edgeplane.io/v1alpha1',
      kind: 'Inventory',
      metadata: { name: 'imw-2' },
      spec: { space: 'root:imw-2' },
    })
    await client.create(
      'root',
      PLACEMENT_GRANTS,
      grant('team-b', {
        workloadSpaces: ['root:team-b'],
        locations: [{ inventory: 'root:imw-1' }],
      })
    )
    await run('team-b', 'p')
    expect(await where('team-b', 'p')).toEqual(['imw-1/florin'])
    const status = await statusOf('team-b', 'p')
    expect(status?.matchingLocationCount).toBe(1)
    expect(JSON.stringify(status)).not.toContain('b-1234')
    expect(JSON.stringify(status)).not.toContain('fake')
  })
  it('a selector in the grant narrows the Locations further', async () => {
    await client.create(
      'root',
      PLACEMENT_GRANTS,
      grant('team-c', {
        workloadSpaces: ['root:team-c'],
        locations: [{ inventory: 'root:imw-1', selector: { matchLabels: { env: 'prod' } } }],
      })
    )
    await run('team-c', 'p')
    expect(await where('team-c', 'p')).toEqual([])
    expect((await statusOf('team-c', 'p'))?.matchingLocationCount).toBe(0)
  })
  it('a space no grant covers places nowhere, and its own SyncTarget is no destination', async () => {
    await run('team-a', 'p')
    expect(await where('team-a', 'p')).toEqual([])
    await run('team-b', 'p')
    expect(await where('team-b', 'p')).not.toContain(`${ids['team-a']}/fake`)
  })
})
