/**
 * The uid index of SyncTargets (lib/hub/uid-index.ts) through the in-process hub: a created
 * SyncTarget is found by uid without listing its space; a deleted one, or the uid of an earlier
 * SyncTarget of the same name, finds nothing; one indexed by a release before is found through
 * its old entry and indexed anew; one created before the index existed is found by the list and
 * indexed then; the index lists mailbox names in order, a page at a time; a dry-run create leaves
 * nothing findable; a SyncTarget under root:espw is never indexed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SYNC_TARGETS, WORKSPACES } from '../../../lib/apis/gvr.ts'
import { createHubClient, type HubClient } from '../../../lib/hub/client.ts'
import {
  forgetUid,
  SYNC_TARGET_INDEX,
  syncTargetByUid,
  wantedMailboxes,
} from '../../../lib/hub/uid-index.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { mailboxName } from '../../../lib/reconcile/keys.ts'
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

const find = (uid: string) => syncTargetByUid(counted, hub.deps.kv, { spaceId, uid })

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

  it("finds one indexed by a release before (its space's entry) without listing, and indexes it anew", async () => {
    const old = await client.create('root:inv', SYNC_TARGETS, st('older-entry'))
    const uid = old.metadata.uid ?? ''
    const key = mailboxName(spaceId, uid)
    await hub.deps.kv.delete(SYNC_TARGET_INDEX, key)
    await hub.deps.kv.put(`uids:${spaceId}`, `synctargets/${uid}`, 'older-entry')
    expect(await wantedMailboxes(hub.deps.kv, { limit: 1000 })).not.toContain(key)
    lists = 0
    expect((await find(uid))?.metadata.name).toBe('older-entry')
    expect(lists).toBe(0)
    expect((await hub.deps.kv.get(SYNC_TARGET_INDEX, key))?.value).toBe('older-entry')
    expect(await wantedMailboxes(hub.deps.kv, { limit: 1000 })).toContain(key)
    await forgetUid(hub.deps.kv, spaceId, uid)
    expect(await hub.deps.kv.get(`uids:${spaceId}`, `synctargets/${uid}`)).toBeUndefined()
    expect(await hub.deps.kv.get(SYNC_TARGET_INDEX, key)).toBeUndefined()
    // Forgotten while the object lives (only the mailbox step forgets, once it is gone): the
    // next lookup lists the space once and indexes it again.
    expect((await find(uid))?.metadata.name).toBe('older-entry')
    expect(lists).toBe(1)
    expect(await wantedMailboxes(hub.deps.kv, { limit: 1000 })).toContain(key)
  })

  it('lists the mailboxes of indexed SyncTargets in name order, a bounded page at a time', async () => {
    const all = await wantedMailboxes(hub.deps.kv, { limit: 1000 })
    expect(all).toEqual([...all].sort())
    const first = await wantedMailboxes(hub.deps.kv, { limit: 2 })
    const second = await wantedMailboxes(hub.deps.kv, { after: first[1], limit: 2 })
    expect([...first, ...second]).toEqual(all.slice(0, 4))
    const targets = await client.list('root:inv', SYNC_TARGETS)
    for (const t of targets) expect(all).toContain(mailboxName(spaceId, t.metadata.uid ?? ''))
  })

  it('finds one created before the index by listing once, then indexes it', async () => {
    const old = await client.create('root:inv', SYNC_TARGETS, st('from-before'))
    const uid = old.metadata.uid ?? ''
    await hub.deps.kv.delete(SYNC_TARGET_INDEX, mailboxName(spaceId, uid))
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

  it('never indexes a SyncTarget of root:espw or below: it never wants a mailbox', async () => {
    await client.create('root:espw', WORKSPACES, {
      apiVersion: 'tenancy.kcp.io/v1alpha1',
      kind: 'Workspace',
      metadata: { name: 'provided' },
    })
    const provided = await client.space('root:espw:provided')
    const made = await client.create(provided.path, SYNC_TARGETS, st('planted'))
    const key = mailboxName(provided.id, made.metadata.uid ?? '')
    expect(await hub.deps.kv.get(SYNC_TARGET_INDEX, key)).toBeUndefined()
    expect(await wantedMailboxes(hub.deps.kv, { limit: 1000 })).not.toContain(key)
  })
})
