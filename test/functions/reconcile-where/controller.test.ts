import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { whereController } from '../../../functions/reconcile-where/controller.ts'
import { keysForEvent } from '../../../functions/reconcile-where/keys-for-event.ts'
import { parseWhereKey, whereKeyOf } from '../../../functions/reconcile-where/names.ts'
import {
  EDGE_PLACEMENTS,
  LOCATIONS,
  PLACEMENT_SLICES,
  SYNC_TARGETS,
} from '../../../lib/apis/gvr.ts'
import { createHubClient, type HubClient } from '../../../lib/hub/client.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'
import { createSpaces } from './world.ts'

let hub: TestHub
let client: HubClient
const ids: Record<string, string> = {}

const placement = (name: string) => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'EdgePlacement',
  metadata: { name },
  spec: { locationSelectors: [{}] },
})

beforeAll(async () => {
  hub = await createTestHub()
  client = createHubClient(hub.deps, { fieldManager: 'test' })
  Object.assign(ids, await createSpaces(client, ['imw-1', 'wmw-1', 'wmw-2']))
  for (const n of ['a', 'b', 'c']) await client.create('root:wmw-1', EDGE_PLACEMENTS, placement(n))
  await client.create('root:wmw-2', EDGE_PLACEMENTS, placement('a'))
  const owner = {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'EdgePlacement',
    name: 'orphan',
    uid: '00000000-0000-4000-8000-000000000003',
  }
  const sps = (name: string, ownerReferences?: (typeof owner)[]) => ({
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'SinglePlacementSlice',
    metadata: { name, ...(ownerReferences ? { ownerReferences } : {}) },
    destinations: [],
  })
  await client.create('root:wmw-2', PLACEMENT_SLICES, sps('orphan', [owner]))
  await client.create('root:wmw-2', PLACEMENT_SLICES, sps('hand-made'))
})
afterAll(() => hub.close())

describe('where controller', () => {
  it('is named "where" and reconciles through the step', async () => {
    const c = whereController(client)
    expect(c.name).toBe('where')
    expect((await c.reconcile(`${ids['wmw-1']}/a`)).outcome).toBe('created, status updated')
    await expect(c.reconcile('bad key')).rejects.toMatchObject({ name: 'TerminalError' })
  })

  it('pages through every placement and every owned slice, in key order', async () => {
    const c = whereController(client)
    const seen: string[] = []
    let cursor: string | undefined
    let pages = 0
    for (;;) {
      const page = await c.listKeys(cursor, 2)
      expect(page.keys.length).toBeLessThanOrEqual(2)
      seen.push(...page.keys)
      pages++
      if (!page.next) break
      cursor = page.next
    }
    const w1 = ids['wmw-1']
    const w2 = ids['wmw-2']
    const want = [`${w1}/a`, `${w1}/b`, `${w1}/c`, `${w2}/a`, `${w2}/orphan`].sort()
    expect(seen).toEqual(want)
    expect(pages).toBe(3)
    expect(await c.listKeys(want.at(-1), 10)).toEqual({ keys: [] })
  })

  it('maps events to keys', async () => {
    const ep = (await client.get('root:wmw-1', EDGE_PLACEMENTS, 'b'))!
    expect(await keysForEvent('EdgePlacement', ep, client)).toEqual([`${ids['wmw-1']}/b`])
    const slice = (await client.get('root:wmw-1', PLACEMENT_SLICES, 'a'))!
    expect(await keysForEvent('SinglePlacementSlice', slice, client)).toEqual([`${ids['wmw-1']}/a`])
    const loc = await client.create('root:imw-1', LOCATIONS, {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'Location',
      metadata: { name: 'x' },
      spec: { resource: { group: 'edge.kcp.io', version: 'v1alpha1', resource: 'synctargets' } },
    })
    const everyPlacement = (await client.list('*', EDGE_PLACEMENTS)).map((o) => whereKeyOf(o))
    expect(everyPlacement).toHaveLength(4)
    expect(await keysForEvent('Location', loc, client)).toEqual(everyPlacement.sort())
    const st = await client.create('root:imw-1', SYNC_TARGETS, {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'SyncTarget',
      metadata: { name: 'x' },
    })
    expect(await keysForEvent('SyncTarget', st, client)).toEqual(everyPlacement.sort())
  })

  it('maps an object without a cluster annotation to no key', async () => {
    const bare = {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'EdgePlacement',
      metadata: { name: 'x' },
    }
    expect(await keysForEvent('EdgePlacement', bare, client)).toEqual([])
  })
})

describe('where keys', () => {
  it('parses good keys and rejects bad ones', () => {
    expect(parseWhereKey('root/my.placement-1')).toEqual({
      spaceId: 'root',
      name: 'my.placement-1',
    })
    for (const bad of [
      '',
      'x',
      'a/',
      '/b',
      'a/B',
      'a/b/c',
      'a:b/c',
      'a/-b',
      `a/${'x'.repeat(254)}`,
    ])
      expect(parseWhereKey(bad)).toBeUndefined()
  })
})
