/**
 * The uid index of SyncTargets (lib/hub/uid-index.ts) through the in-process hub: a created
 * SyncTarget is found by uid without listing its space; a deleted one, or the uid of an earlier
 * SyncTarget of the same name, finds nothing; one created before the index existed is found by
 * the list and indexed then; a dry-run create leaves nothing findable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SYNC_TARGETS, WORKSPACES } from '../../../lib/apis/gvr.ts'
import { createHubClient, type HubClient } from '../../../lib/hub/client.ts'
import { syncTargetByUid } from '../../../lib/hub/uid-index.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
let client: HubClient
let lists = 0
let counted: HubClient
let spaceId = ''

const st = (name: string): KubeObject => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'SyncTarget',
  metadata: { name },
})

beforeAll(async () => {
  hub = await createTestHub()
  client = createHubClient(hub.deps, { fieldManager: 'test' })
  counted = {
    ...client,
    list: (...args) => {
      lists++
      return client.list(...args)
    },
  }
  await client.create('root', WORKSPACES, {
    apiVersion: 'tenancy.kcp.io/v1alpha1',
    kind: 'Workspace',
    metadata: { name: 'inv' },
  })
  spaceId = (await client.space('root:inv')).id
})
afterAll(() => hub.close())

const find = (uid: string) => syncTargetByUid(counted, hub.deps.kv, spaceId, uid)

describe('SyncTargets by uid', () => {
  it('finds a created SyncTarget without listing its space', async () => {
    for (let i = 0; i < 5; i++) await client.create('root:inv', SYNC_TARGETS, st(`edge-${i}`))
    const target = (await client.get('root:inv', SYNC_TARGETS, 'edge-3')) as KubeObject
    lists = 0
    expect((await find(target.metadata.uid ?? ''))?.metadata.name).toBe('edge-3')
    expect(lists).toBe(0)
  })

  it('finds nothing for a deleted SyncTarget, nor for the earlier uid of a re-created name', async () => {
    const first = await client.create('root:inv', SYNC_TARGETS, st('again'))
    await client.delete('root:inv', SYNC_TARGETS, 'again')
    lists = 0
    expect(await find(first.metadata.uid ?? '')).toBeUndefined()
    // The entry outlives the object, so the runs its deletion wakes do not list the space.
    expect(lists).toBe(0)
    const second = await client.create('root:inv', SYNC_TARGETS, st('again'))
    expect(await find(first.metadata.uid ?? '')).toBeUndefined()
    expect((await find(second.metadata.uid ?? ''))?.metadata.uid).toBe(second.metadata.uid)
  })

  it('finds one created before the index by listing once, then indexes it', async () => {
    const old = await client.create('root:inv', SYNC_TARGETS, st('from-before'))
    const uid = old.metadata.uid ?? ''
    await hub.deps.kv.delete(`uids:${spaceId}`, `synctargets/${uid}`)
    lists = 0
    expect((await find(uid))?.metadata.name).toBe('from-before')
    expect(lists).toBe(1)
    expect((await find(uid))?.metadata.name).toBe('from-before')
    expect(lists).toBe(1)
  })

  it('leaves nothing findable after a dry-run create', async () => {
    const path = '/clusters/root:inv/apis/edge.kcp.io/v1alpha1/synctargets?dryRun=All'
    const dry = await hub.call('POST', path, st('dry'))
    expect(dry.status).toBe(201)
    expect(await find(dry.body.metadata.uid)).toBeUndefined()
  })
})
