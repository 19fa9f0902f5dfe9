import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mailboxController } from '../../../functions/reconcile-mailbox/controller.ts'
import { mailboxOf } from '../../../functions/reconcile-mailbox/names.ts'
import { reconcileMailbox } from '../../../functions/reconcile-mailbox/reconcile.ts'
import {
  ESPW,
  SYNC_TARGET_NAME_ANNOTATION,
  SYNC_TARGETS,
  WORKSPACES,
} from '../../../lib/apis/gvr.ts'
import { createHubClient, type HubClient } from '../../../lib/hub/client.ts'
import { silentLogger } from '../../../lib/log.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
let client: HubClient

const st = (name: string) => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'SyncTarget',
  metadata: { name, labels: { id: name } },
})

beforeAll(async () => {
  hub = await createTestHub()
  client = createHubClient(hub.deps, { fieldManager: 'test' })
  await client.create('root', WORKSPACES, {
    apiVersion: 'tenancy.kcp.io/v1alpha1',
    kind: 'Workspace',
    metadata: { name: 'imw-1' },
  })
})
afterAll(() => hub.close())

describe('mailbox step', () => {
  it('creates a mailbox for a SyncTarget, annotated with its name, and is idempotent', async () => {
    const target = await client.create('root:imw-1', SYNC_TARGETS, st('florin'))
    const key = mailboxOf(target)!
    expect(key).toMatch(/^[a-z0-9]{16}-mb-[0-9a-f-]{36}$/)
    expect(
      (await reconcileMailbox({ client, kv: hub.deps.kv, log: silentLogger }, key)).outcome
    ).toBe('created')
    expect(
      (await reconcileMailbox({ client, kv: hub.deps.kv, log: silentLogger }, key)).outcome
    ).toBe('unchanged')
    const ws = await client.get(ESPW, WORKSPACES, key)
    expect(ws?.metadata.annotations?.[SYNC_TARGET_NAME_ANNOTATION]).toBe('florin')
    expect(await client.space(`${ESPW}:${key}`)).toMatchObject({ path: `${ESPW}:${key}` })
  })
  it('re-creates a mailbox deleted while its SyncTarget exists', async () => {
    const target = await client.get('root:imw-1', SYNC_TARGETS, 'florin')
    const key = mailboxOf(target!)!
    await client.delete(ESPW, WORKSPACES, key)
    await hub.settle()
    expect(await client.get(ESPW, WORKSPACES, key)).toBeUndefined()
    expect(
      (await reconcileMailbox({ client, kv: hub.deps.kv, log: silentLogger }, key)).outcome
    ).toBe('created')
  })
  it('deletes the mailbox when the SyncTarget goes, and a re-created SyncTarget gets a new one', async () => {
    const old = await client.get('root:imw-1', SYNC_TARGETS, 'florin')
    const oldKey = mailboxOf(old!)!
    await client.delete('root:imw-1', SYNC_TARGETS, 'florin')
    expect(
      (await reconcileMailbox({ client, kv: hub.deps.kv, log: silentLogger }, oldKey)).outcome
    ).toBe('deleted')
    await hub.settle()
    expect(await client.get(ESPW, WORKSPACES, oldKey)).toBeUndefined()
    expect(
      (await reconcileMailbox({ client, kv: hub.deps.kv, log: silentLogger }, oldKey)).outcome
    ).toBe('absent')
    // Neither the SyncTarget nor its mailbox is left: the uid index forgets it.
    const imw = (await client.space('root:imw-1')).id
    expect(await hub.deps.kv.get(`uids:${imw}`, `synctargets/${old?.metadata.uid}`)).toBeUndefined()
    const again = await client.create('root:imw-1', SYNC_TARGETS, st('florin'))
    const newKey = mailboxOf(again)!
    expect(newKey).not.toBe(oldKey)
    expect(
      (await reconcileMailbox({ client, kv: hub.deps.kv, log: silentLogger }, newKey)).outcome
    ).toBe('created')
  })
  it('rejects a key that is not a mailbox name without retrying', async () => {
    await expect(
      reconcileMailbox({ client, kv: hub.deps.kv, log: silentLogger }, 'not-a-mailbox')
    ).rejects.toMatchObject({
      name: 'TerminalError',
    })
  })
  it('lists every wanted and existing mailbox in pages for the resync', async () => {
    await client.create('root:imw-1', SYNC_TARGETS, st('guilder'))
    const c = mailboxController(client, hub.deps.kv)
    const first = await c.listKeys(undefined, 1)
    expect(first.keys).toHaveLength(1)
    const second = await c.listKeys(first.next, 10)
    const all = [...first.keys, ...second.keys]
    const sts = await client.list('root:imw-1', SYNC_TARGETS)
    expect(all.sort()).toEqual(sts.map((s) => mailboxOf(s)!).sort())
  })
})
