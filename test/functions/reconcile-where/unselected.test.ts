/**
 * The where step's `status.unselectedLocations` on a test hub: every reason as the step finds it
 * (SelectorMismatch, LocationDeleting, NotSyncTargets, NoSyncTarget, NoMailbox, with mailboxes
 * being Workspaces of root:espw), matchingLocationCount unchanged in meaning, an unchanged world
 * written once, a mailbox's creation selecting its Location, and the bound: more than 20
 * unselected Locations counted, the first 20 by (cluster, name) listed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reconcileWhere } from '../../../functions/reconcile-where/reconcile.ts'
import {
  EDGE_PLACEMENTS,
  ESPW,
  LOCATIONS,
  SYNC_TARGETS,
  WORKSPACES,
} from '../../../lib/apis/gvr.ts'
import { createHubClient, type HubClient } from '../../../lib/hub/client.ts'
import type { JsonObject, KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { mailboxName } from '../../../lib/reconcile/keys.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'
import { createSpaces, location, syncTarget } from './world.ts'

const IMW = 'root:imw-u'
const IMW2 = 'root:imw-v'
const WMW = 'root:wmw-u'
let hub: TestHub
let client: HubClient
let ids: Record<string, string>

const run = (name: string) =>
  reconcileWhere({ client, log: silentLogger }, `${ids['wmw-u']}/${name}`)
const read = async (name: string) => (await client.get(WMW, EDGE_PLACEMENTS, name)) as KubeObject
const status = async (name: string) => (await read(name)).status as JsonObject
const reasons = async (name: string) =>
  ((await status(name)).unselectedLocations as JsonObject[]).map((u) => `${u.name} ${u.reason}`)

async function mailboxFor(stName: string): Promise<void> {
  const st = await client.get(IMW, SYNC_TARGETS, stName)
  await client.create(ESPW, WORKSPACES, {
    apiVersion: 'tenancy.kcp.io/v1alpha1',
    kind: 'Workspace',
    metadata: {
      name: mailboxName(ids['imw-u'] ?? '', st?.metadata.uid ?? ''),
      annotations: { 'edge.kcp.io/sync-target-name': stName },
    },
  })
}

beforeAll(async () => {
  hub = await createTestHub()
  client = createHubClient(hub.deps, { fieldManager: 'test' })
  ids = await createSpaces(client, ['imw-u', 'imw-v', 'wmw-u'])
  await client.create(IMW, LOCATIONS, location('a-dev', { env: 'dev' }))
  for (const n of ['b-ok', 'c-none', 'd-waiting', 'e-kind', 'f-gone'])
    await client.create(IMW, LOCATIONS, location(n, { env: 'prod' }))
  const other = (await client.get(IMW, LOCATIONS, 'e-kind')) as KubeObject
  const clusters = { group: 'edge.kcp.io', version: 'v1alpha1', resource: 'clusters' }
  await client.update(IMW, LOCATIONS, {
    ...other,
    spec: { ...(other.spec as object), resource: clusters },
  })
  const gone = (await client.get(IMW, LOCATIONS, 'f-gone')) as KubeObject
  const metadata = { ...gone.metadata, finalizers: ['test.example/hold'] }
  await client.update(IMW, LOCATIONS, { ...gone, metadata })
  await client.delete(IMW, LOCATIONS, 'f-gone')
  for (const n of ['b-ok', 'd-waiting', 'e-kind', 'f-gone'])
    await client.create(IMW, SYNC_TARGETS, syncTarget(n))
  await mailboxFor('b-ok')
  await client.create(WMW, EDGE_PLACEMENTS, {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'EdgePlacement',
    metadata: { name: 'prod' },
    spec: {
      locationSelectors: [{ matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] }],
    },
  })
})
afterAll(() => hub.close())

describe('the where step lists the Locations it does not select', () => {
  it('with each reason, ordered by name, counting matches as before', async () => {
    expect((await run('prod')).outcome).toBe('created, status updated')
    const s = await status('prod')
    expect(s).toMatchObject({ matchingLocationCount: 3, unselectedLocationCount: 5 })
    expect(await reasons('prod')).toEqual([
      'a-dev SelectorMismatch',
      'c-none NoSyncTarget',
      'd-waiting NoMailbox',
      'e-kind NotSyncTargets',
      'f-gone LocationDeleting',
    ])
    expect((s.unselectedLocations as JsonObject[])[0]).toEqual({
      cluster: ids['imw-u'],
      name: 'a-dev',
      reason: 'SelectorMismatch',
      message: 'locationSelectors[0]: env in (prod): the Location has env=dev',
    })
    const owner = (await read('prod')).metadata.managedFields?.find(
      (m) => m.manager === 'edgeplane-where'
    )
    const fields = (owner?.fieldsV1 ?? {}) as JsonObject
    expect(Object.keys(fields['f:status'] as JsonObject).sort()).toEqual([
      'f:matchingLocationCount',
      'f:specGeneration',
      'f:unselectedLocationCount',
      'f:unselectedLocations',
    ])
  })

  it('writes nothing when the world is unchanged', async () => {
    const before = (await read('prod')).metadata.resourceVersion
    expect(await run('prod')).toEqual({ outcome: 'unchanged' })
    expect((await read('prod')).metadata.resourceVersion).toBe(before)
  })

  it('selects a Location once one of its SyncTargets has its mailbox', async () => {
    await mailboxFor('d-waiting')
    expect((await run('prod')).outcome).toBe('status updated')
    expect(await status('prod')).toMatchObject({
      matchingLocationCount: 3,
      unselectedLocationCount: 4,
    })
    expect(await reasons('prod')).not.toContain('d-waiting NoMailbox')
  })

  it('counts every unselected Location and lists the first 20 by (cluster, name)', async () => {
    for (let i = 0; i < 30; i++)
      await client.create(
        IMW2,
        LOCATIONS,
        location(`dev-${String(i).padStart(2, '0')}`, { env: 'dev' })
      )
    expect((await run('prod')).outcome).toBe('status updated')
    const s = await status('prod')
    expect(s.unselectedLocationCount).toBe(34)
    const listed = s.unselectedLocations as JsonObject[]
    expect(listed).toHaveLength(20)
    const keys = listed.map((u) => `${u.cluster}/${u.name}`)
    expect(keys).toEqual([...keys].sort())
    const first = [ids['imw-u'], ids['imw-v']].sort()[0]
    expect(listed[0]?.cluster).toBe(first)
    expect(await run('prod')).toEqual({ outcome: 'unchanged' })
  })

  it('drops the list once every Location is selected', async () => {
    for (const l of await client.list(IMW2, LOCATIONS))
      await client.delete(IMW2, LOCATIONS, l.metadata.name ?? '')
    for (const n of ['a-dev', 'c-none', 'e-kind']) await client.delete(IMW, LOCATIONS, n)
    const gone = (await client.get(IMW, LOCATIONS, 'f-gone')) as KubeObject
    await client.update(IMW, LOCATIONS, { ...gone, metadata: { ...gone.metadata, finalizers: [] } })
    await hub.settle()
    expect((await run('prod')).outcome).toBe('status updated')
    const s = await status('prod')
    expect(s).toMatchObject({ matchingLocationCount: 2, unselectedLocationCount: 0 })
    expect(s).not.toHaveProperty('unselectedLocations')
  })
})
