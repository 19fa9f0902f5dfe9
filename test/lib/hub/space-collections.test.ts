import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ESPW, WORKSPACES } from '../../../lib/apis/gvr.ts'
import { createHubClient, type HubClient } from '../../../lib/hub/client.ts'
import { collectionsOf, noteCollection } from '../../../lib/hub/space-collections.ts'
import { registryForSpace } from '../../../lib/hub/space-registry.ts'
import { ensureSpace, getSpaceByPath } from '../../../lib/hub/spaces.ts'
import { createSnapshot } from '../../../lib/placement/snapshot.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

const counter = createRequestCounter()
let hub: TestHub
let client: HubClient

const workspace = (name: string) => ({
  apiVersion: 'tenancy.kcp.io/v1alpha1',
  kind: 'Workspace',
  metadata: { name },
})
const configMap = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default' },
  data: { a: '1' },
})
const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' }
const idOf = async (path: string) => (await getSpaceByPath(hub.deps.kv, path))?.id ?? ''

beforeAll(async () => {
  hub = await createTestHub({ counter })
  client = createHubClient(hub.deps, { fieldManager: 'test' })
})
afterAll(() => hub.close())

describe('the index of the collections of a space', () => {
  it('names each collection holding an object, from the space creation on', async () => {
    await client.create('root', WORKSPACES, workspace('idx'))
    const id = await idOf('root:idx')
    expect((await getSpaceByPath(hub.deps.kv, 'root:idx'))?.collections).toBe('indexed')
    expect(await collectionsOf(hub.deps.kv, id)).toEqual(new Set(['/namespaces']))
    await client.create('root:idx', CONFIGMAPS, configMap('c1'))
    await client.create('root:idx', CONFIGMAPS, configMap('c2'))
    expect(await collectionsOf(hub.deps.kv, id)).toEqual(new Set(['/namespaces', '/configmaps']))
    // the collection stays named when emptied: the index only over-states
    await client.delete('root:idx', CONFIGMAPS, 'c1', { namespace: 'default' })
    await client.delete('root:idx', CONFIGMAPS, 'c2', { namespace: 'default' })
    expect((await collectionsOf(hub.deps.kv, id))?.has('/configmaps')).toBe(true)
  })

  it('is written before the object: a create whose note fails stores nothing', async () => {
    await client.create('root', WORKSPACES, workspace('idx-fail'))
    const space = await getSpaceByPath(hub.deps.kv, 'root:idx-fail')
    const kv = hub.deps.kv
    const put = kv.put
    kv.put = async (ns, key, value, expected) => {
      if (ns.startsWith('space-collections/')) throw new Error('store unavailable')
      return put.call(kv, ns, key, value, expected)
    }
    try {
      await expect(
        client.create(
          'root:idx-fail',
          { group: '', version: 'v1', resource: 'secrets' },
          {
            apiVersion: 'v1',
            kind: 'Secret',
            metadata: { name: 's', namespace: 'default' },
          }
        )
      ).rejects.toThrow()
    } finally {
      kv.put = put
    }
    expect(
      await client.get(
        'root:idx-fail',
        { group: '', version: 'v1', resource: 'secrets' },
        's',
        'default'
      )
    ).toBeUndefined()
    expect((await collectionsOf(kv, space?.id ?? ''))?.has('/secrets')).toBe(false)
  })

  it('is not kept for mailbox spaces nor for spaces an earlier release made', async () => {
    const mailbox = `abcdefghijklmnop-mb-0a1b2c3d-1111-2222-3333-444455556666`
    await client.create(ESPW, WORKSPACES, workspace(mailbox))
    expect(await collectionsOf(hub.deps.kv, await idOf(`${ESPW}:${mailbox}`))).toBeUndefined()
    // what an earlier release made: a record without the flag and no marker
    const old = await ensureSpace(hub.deps.kv, 'root:old-release')
    expect(old.collections).toBeUndefined()
    await noteCollection(hub.deps, old, '/configmaps')
    expect(await collectionsOf(hub.deps.kv, old.id)).toBeUndefined()
  })

  it("lets the snapshot list only the space's collections, with the same objects", async () => {
    await client.create('root', WORKSPACES, workspace('snap'))
    await client.create('root:snap', CONFIGMAPS, configMap('c'))
    const id = await idOf('root:snap')
    // The lists the snapshot asks of the hub client, counted there: the store requests of the
    // same reads also hold the client's registry lookups, which the hub keeps for 2 s only, so
    // their number would depend on how busy the machine is.
    const read = async (indexed: boolean) => {
      const lists: string[] = []
      const counting: HubClient = {
        ...client,
        list: (space, gvr, opts) => {
          lists.push(`${space === id ? '' : `${space}:`}${gvr.resource}`)
          return client.list(space, gvr, opts)
        },
      }
      const snapshot = createSnapshot({
        client: counting,
        registry: (spaceId) => registryForSpace(hub.deps, spaceId),
        ...(indexed
          ? { collections: (spaceId: string) => collectionsOf(hub.deps.kv, spaceId) }
          : {}),
      })
      const objects = (await snapshot.space(id)).objects
      return { objects, lists: lists.sort() }
    }
    const all = await read(false)
    const indexed = await read(true)
    expect(indexed.objects.map((o) => `${o.resource}/${o.object.metadata.name}`).sort()).toEqual(
      all.objects.map((o) => `${o.resource}/${o.object.metadata.name}`).sort()
    )
    expect(indexed.objects.map((o) => o.resource).sort()).toEqual(['configmaps', 'namespaces'])
    // one list per collection the index names, instead of one per resource, plus the batch's two
    // reads of the tenancy policy (root's Inventories and PlacementGrants)
    expect(indexed.lists).toEqual([
      'configmaps',
      'namespaces',
      'root:inventories',
      'root:placementgrants',
    ])
    expect(all.lists.length).toBeGreaterThan(20)
  })

  it('is removed with its space', async () => {
    await client.create('root', WORKSPACES, workspace('gone'))
    const id = await idOf('root:gone')
    await client.delete('root', WORKSPACES, 'gone')
    await hub.settle()
    expect(await hub.deps.kv.list(`space-collections/${id}`)).toEqual([])
  })
})
