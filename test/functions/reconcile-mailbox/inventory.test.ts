/**
 * The mailbox step's inventory gate (functions/reconcile-mailbox/inventory.ts): while root holds no
 * Inventory or PlacementGrant every space makes edges (single-team); once an Inventory exists only
 * its space does, a tenant's own SyncTarget gets no mailbox (one it had is deleted), says why in its
 * status, and gets its mailbox when an administrator makes its space an inventory space.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mailboxOf } from '../../../functions/reconcile-mailbox/names.ts'
import { reconcileMailbox } from '../../../functions/reconcile-mailbox/reconcile.ts'
import { ESPW, INVENTORIES, LOCATIONS, SYNC_TARGETS, WORKSPACES } from '../../../lib/apis/gvr.ts'
import { createHubClient, type HubClient } from '../../../lib/hub/client.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'
import { createSpaces, location, syncTarget } from '../reconcile-where/world.ts'

let hub: TestHub
let client: HubClient

const st = (name: string) => syncTarget(name)
const inventory = (name: string, space: string) => ({
  apiVersion: 'tenancy.edgeplane.io/v1alpha1',
  kind: 'Inventory',
  metadata: { name },
  spec: { space },
})
const run = async (key: string) =>
  (await reconcileMailbox({ client, kv: hub.deps.kv, log: silentLogger }, key)).outcome
const conditionOf = (o: KubeObject | undefined) =>
  ((o?.status as { conditions?: KubeObject[] } | undefined)?.conditions ?? []).find(
    (c) => (c as { type?: string }).type === 'Inventory'
  )

beforeAll(async () => {
  hub = await createTestHub()
  client = createHubClient(hub.deps, { fieldManager: 'test' })
  await createSpaces(client, ['imw-1', 'team-a'])
})
afterAll(() => hub.close())

describe('mailbox step: only inventory spaces make edges', () => {
  it('makes a mailbox for any space while the hub is single-team, and no status write', async () => {
    const tenant = await client.create('root:team-a', SYNC_TARGETS, st('fake'))
    expect(await run(mailboxOf(tenant)!)).toBe('created')
    expect(conditionOf(await client.get('root:team-a', SYNC_TARGETS, 'fake'))).toBeUndefined()
  })
  it("once an Inventory exists, a tenant's SyncTarget loses its mailbox and says why", async () => {
    await client.create('root:team-a', LOCATIONS, location('fake', { 'loc-name': 'florin' }))
    await client.create('root', INVENTORIES, inventory('imw-1', 'root:imw-1'))
    const real = await client.create('root:imw-1', SYNC_TARGETS, st('florin'))
    expect(await run(mailboxOf(real)!)).toBe('created')
    const tenant = await client.get('root:team-a', SYNC_TARGETS, 'fake')
    const key = mailboxOf(tenant!)!
    expect(await run(key)).toBe('deleted: not an inventory space')
    await hub.settle()
    expect(await client.get(ESPW, WORKSPACES, key)).toBeUndefined()
    expect(await run(key)).toBe('not an inventory space')
    const cond = conditionOf(await client.get('root:team-a', SYNC_TARGETS, 'fake'))
    expect(cond).toMatchObject({ status: 'False', reason: 'NotInventorySpace' })
    expect(String((cond as { message?: string }).message)).toContain(
      'root:team-a is not an inventory space'
    )
    // so does its Location; the real edge has no such condition
    const loc = conditionOf(await client.get('root:team-a', LOCATIONS, 'fake'))
    expect(loc).toMatchObject({ status: 'False', reason: 'NotInventorySpace' })
    expect(String((loc as { message?: string }).message)).toContain('no placement can select')
    expect(conditionOf(await client.get('root:imw-1', SYNC_TARGETS, 'florin'))).toBeUndefined()
  })
  it('a SyncTarget made in a non-inventory space never gets a mailbox', async () => {
    const tenant = await client.create('root:team-a', SYNC_TARGETS, st('fake-2'))
    const key = mailboxOf(tenant)!
    expect(await run(key)).toBe('not an inventory space')
    expect(await client.get(ESPW, WORKSPACES, key)).toBeUndefined()
  })
  it('gets its mailbox, and gives its condition up, once its space becomes an inventory', async () => {
    await client.create('root', INVENTORIES, inventory('team-a', 'root:team-a'))
    const tenant = await client.get('root:team-a', SYNC_TARGETS, 'fake-2')
    expect(await run(mailboxOf(tenant!)!)).toBe('created')
    expect(conditionOf(await client.get('root:team-a', SYNC_TARGETS, 'fake-2'))).toBeUndefined()
    expect(conditionOf(await client.get('root:team-a', LOCATIONS, 'fake'))).toBeUndefined()
  })
  it('an Inventory naming root:espw or a space below it makes no edges there', async () => {
    await client.create('root', INVENTORIES, inventory('espw', 'root:espw'))
    const planted = await client.create(ESPW, SYNC_TARGETS, st('planted'))
    expect(await run(mailboxOf(planted)!)).toBe('not an inventory space')
  })
})
