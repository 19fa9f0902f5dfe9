import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reconcileWhere } from '../../../functions/reconcile-where/reconcile.ts'
import {
  EDGE_PLACEMENTS,
  LOCATIONS,
  PLACEMENT_SLICES,
  SYNC_TARGETS,
} from '../../../lib/apis/gvr.ts'
import { createHubClient, type HubClient } from '../../../lib/hub/client.ts'
import type { LabelSelector } from '../../../lib/kube/label-selector.ts'
import type { JsonObject, KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'
import { createSpaces, location, syncTarget } from './world.ts'

const IMW = 'root:imw-1'
const WMW = 'root:wmw-1'
let hub: TestHub
let client: HubClient
let imwId: string
let wmwId: string

const placement = (name: string, locationSelectors?: LabelSelector[]): KubeObject => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'EdgePlacement',
  metadata: { name },
  spec: (locationSelectors ? { locationSelectors } : {}) as JsonObject,
})

const run = (name: string) => reconcileWhere({ client, log: silentLogger }, `${wmwId}/${name}`)
const slice = (name: string) => client.get(WMW, PLACEMENT_SLICES, name)
/** The slice's destinations as `location/syncTarget` (the cluster is checked separately). */
async function where(name: string): Promise<string[]> {
  const s = await slice(name)
  const ds = (s?.destinations ?? []) as {
    cluster: string
    locationName: string
    syncTargetName: string
  }[]
  for (const d of ds) expect(d.cluster).toBe(imwId)
  return ds.map((d) => `${d.locationName}/${d.syncTargetName}`)
}
async function status(name: string) {
  return (await client.get(WMW, EDGE_PLACEMENTS, name))?.status
}
async function relabel(name: string, labels: Record<string, string>) {
  const l = (await client.get(IMW, LOCATIONS, name))!
  await client.update(IMW, LOCATIONS, { ...l, metadata: { ...l.metadata, labels } })
}

beforeAll(async () => {
  hub = await createTestHub()
  client = createHubClient(hub.deps, { fieldManager: 'test' })
  const ids = await createSpaces(client, ['imw-1', 'wmw-1'])
  imwId = ids['imw-1'] ?? ''
  wmwId = ids['wmw-1'] ?? ''
})
afterAll(() => hub.close())

describe('where step', () => {
  it('resolves overlapping placements additively, with owner, uids, and status', async () => {
    for (const [n, region] of [
      ['east', 'east'],
      ['west', 'west'],
    ] as const) {
      await client.create(IMW, LOCATIONS, location(n, { t: 'overlap', env: 'prod', region }))
      await client.create(IMW, SYNC_TARGETS, syncTarget(n))
    }
    const ep = await client.create(
      WMW,
      EDGE_PLACEMENTS,
      placement('all-prod', [{ matchLabels: { t: 'overlap' } }])
    )
    await client.create(
      WMW,
      EDGE_PLACEMENTS,
      placement('east-twice', [
        { matchLabels: { t: 'overlap', region: 'east' } },
        {
          matchLabels: { t: 'overlap', env: 'prod' },
          matchExpressions: [{ key: 'region', operator: 'In', values: ['east'] }],
        },
      ])
    )
    expect((await run('all-prod')).outcome).toBe('created, status updated')
    expect((await run('east-twice')).outcome).toBe('created, status updated')
    expect(await where('all-prod')).toEqual(['east/east', 'west/west'])
    expect(await where('east-twice')).toEqual(['east/east'])
    const s = (await slice('all-prod'))!
    const east = await client.get(IMW, SYNC_TARGETS, 'east')
    expect((s.destinations as { syncTargetUID: string }[])[0]?.syncTargetUID).toBe(
      east?.metadata.uid
    )
    expect(s.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'edge.kcp.io/v1alpha1',
        kind: 'EdgePlacement',
        name: 'all-prod',
        uid: ep.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ])
    expect(await status('all-prod')).toMatchObject({ matchingLocationCount: 2, specGeneration: 1 })
    expect(await status('east-twice')).toMatchObject({ matchingLocationCount: 1 })
  })

  it('a second run reports unchanged and writes nothing', async () => {
    const before = await slice('all-prod')
    const epBefore = await client.get(WMW, EDGE_PLACEMENTS, 'all-prod')
    expect(await run('all-prod')).toEqual({ outcome: 'unchanged' })
    expect((await slice('all-prod'))?.metadata.resourceVersion).toBe(
      before?.metadata.resourceVersion
    )
    expect((await client.get(WMW, EDGE_PLACEMENTS, 'all-prod'))?.metadata.resourceVersion).toBe(
      epBefore?.metadata.resourceVersion
    )
  })

  it('follows a Location relabelled out of and back into the selector', async () => {
    await relabel('west', { env: 'prod', region: 'west' })
    expect((await run('all-prod')).outcome).toBe('updated, status updated')
    expect(await where('all-prod')).toEqual(['east/east'])
    expect(await status('all-prod')).toMatchObject({ matchingLocationCount: 1 })
    await relabel('west', { t: 'overlap', env: 'prod', region: 'west' })
    expect((await run('all-prod')).outcome).toBe('updated, status updated')
    expect(await where('all-prod')).toEqual(['east/east', 'west/west'])
  })

  it('drops a deleted SyncTarget and picks up its re-creation under the new uid', async () => {
    const old = await client.get(IMW, SYNC_TARGETS, 'west')
    await client.delete(IMW, SYNC_TARGETS, 'west')
    await hub.settle()
    // The status's unselected Locations follow: west has no SyncTarget, then one without mailbox.
    expect((await run('all-prod')).outcome).toBe('updated, status updated')
    expect(await where('all-prod')).toEqual(['east/east'])
    expect(await status('all-prod')).toMatchObject({ matchingLocationCount: 2 })
    const again = await client.create(IMW, SYNC_TARGETS, syncTarget('west'))
    expect(again.metadata.uid).not.toBe(old?.metadata.uid)
    expect((await run('all-prod')).outcome).toBe('updated, status updated')
    const ds = (await slice('all-prod'))?.destinations as {
      syncTargetName: string
      syncTargetUID: string
    }[]
    expect(ds.find((d) => d.syncTargetName === 'west')?.syncTargetUID).toBe(again.metadata.uid)
  })

  it('lists every SyncTarget an instanceSelector matches', async () => {
    await client.create(
      IMW,
      LOCATIONS,
      location('lab', { t: 'pool' }, { matchLabels: { pool: 'lab' } })
    )
    for (const n of ['lab-b', 'lab-a'])
      await client.create(IMW, SYNC_TARGETS, syncTarget(n, { pool: 'lab' }))
    await client.create(WMW, EDGE_PLACEMENTS, placement('pool', [{ matchLabels: { t: 'pool' } }]))
    await run('pool')
    expect(await where('pool')).toEqual(['lab/lab-a', 'lab/lab-b'])
    expect(await status('pool')).toMatchObject({ matchingLocationCount: 1 })
  })

  it('gives a placement without selectors an empty slice and a count of 0', async () => {
    await client.create(WMW, EDGE_PLACEMENTS, placement('nowhere'))
    await client.create(WMW, EDGE_PLACEMENTS, placement('empty-list', []))
    for (const n of ['nowhere', 'empty-list']) {
      expect((await run(n)).outcome).toBe('created, status updated')
      expect(await slice(n)).toMatchObject({ destinations: [] })
      expect(await status(n)).toMatchObject({ matchingLocationCount: 0, specGeneration: 1 })
    }
  })

  it('follows an edited placement', async () => {
    const ep = (await client.get(WMW, EDGE_PLACEMENTS, 'east-twice'))!
    const spec = { locationSelectors: [{ matchLabels: { region: 'west' } }] }
    await client.update(WMW, EDGE_PLACEMENTS, { ...ep, spec })
    expect((await run('east-twice')).outcome).toBe('updated, status updated')
    expect(await where('east-twice')).toEqual(['west/west'])
    expect(await status('east-twice')).toMatchObject({
      matchingLocationCount: 1,
      specGeneration: 2,
    })
  })

  it('lets the hub GC remove the slice of a deleted placement, then reports absent', async () => {
    await client.delete(WMW, EDGE_PLACEMENTS, 'nowhere')
    await hub.settle()
    expect(await slice('nowhere')).toBeUndefined()
    expect(await run('nowhere')).toEqual({ outcome: 'absent' })
  })

  it('deletes the slice of a placement that is being deleted', async () => {
    const ep = (await client.get(WMW, EDGE_PLACEMENTS, 'empty-list'))!
    const metadata = { ...ep.metadata, finalizers: ['test.example/hold'] }
    await client.update(WMW, EDGE_PLACEMENTS, { ...ep, metadata })
    await client.delete(WMW, EDGE_PLACEMENTS, 'empty-list')
    const deleting = await client.get(WMW, EDGE_PLACEMENTS, 'empty-list')
    expect(deleting?.metadata.deletionTimestamp).toBeDefined()
    expect(await run('empty-list')).toEqual({ outcome: 'deleted' })
    await hub.settle()
    expect(await slice('empty-list')).toBeUndefined()
    expect(await run('empty-list')).toEqual({ outcome: 'absent' })
  })

  it('deletes an orphaned slice but leaves one it does not own', async () => {
    const owner = {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'EdgePlacement',
      name: 'orphan',
      uid: '00000000-0000-4000-8000-000000000001',
    }
    await client.create(WMW, PLACEMENT_SLICES, {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'SinglePlacementSlice',
      metadata: { name: 'orphan', ownerReferences: [owner] },
      destinations: [],
    })
    await client.create(WMW, PLACEMENT_SLICES, {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'SinglePlacementSlice',
      metadata: { name: 'hand-made' },
      destinations: [],
    })
    expect((await run('orphan')).outcome).toBe('deleted')
    await hub.settle()
    expect(await slice('orphan')).toBeUndefined()
    expect(await run('hand-made')).toEqual({ outcome: 'absent' })
    expect(await slice('hand-made')).toBeDefined()
  })

  it('takes over a slice left by an earlier placement of the same name', async () => {
    const stale = {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'EdgePlacement',
      name: 'reborn',
      uid: '00000000-0000-4000-8000-000000000002',
    }
    const dest = {
      cluster: imwId,
      locationName: 'east',
      syncTargetName: 'east',
      syncTargetUID: 'stale',
    }
    await client.create(WMW, PLACEMENT_SLICES, {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'SinglePlacementSlice',
      metadata: { name: 'reborn', ownerReferences: [stale] },
      destinations: [dest],
    })
    const ep = await client.create(
      WMW,
      EDGE_PLACEMENTS,
      placement('reborn', [{ matchLabels: { region: 'east' } }])
    )
    expect((await run('reborn')).outcome).toBe('updated, status updated')
    const s = (await slice('reborn'))!
    expect(s.metadata.ownerReferences?.map((r) => r.uid)).toEqual([ep.metadata.uid])
    expect(await where('reborn')).toEqual(['east/east'])
  })

  it('converges when two runs race on a new placement', async () => {
    await client.create(
      WMW,
      EDGE_PLACEMENTS,
      placement('race', [{ matchLabels: { t: 'overlap' } }])
    )
    const results = await Promise.allSettled([run('race'), run('race')])
    expect(results.some((r) => r.status === 'fulfilled')).toBe(true)
    await run('race')
    expect(await run('race')).toEqual({ outcome: 'unchanged' })
    expect(await where('race')).toEqual(['east/east', 'west/west'])
  })

  it('rejects malformed keys without retrying', async () => {
    for (const key of ['', 'no-slash', `${wmwId}/`, `/x`, `${wmwId}/Upper`, `a/b/c`, `A/x`]) {
      await expect(reconcileWhere({ client, log: silentLogger }, key)).rejects.toMatchObject({
        name: 'TerminalError',
      })
    }
  })

  it('treats a key in an unknown space as absent', async () => {
    expect(await reconcileWhere({ client, log: silentLogger }, 'zzzzzzzzzzzzzzzz/x')).toEqual({
      outcome: 'absent',
    })
  })
})
