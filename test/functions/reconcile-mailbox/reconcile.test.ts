import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONCURRENCY, mailboxController } from '../../../functions/reconcile-mailbox/controller.ts'
import { mailboxName, mailboxOf } from '../../../functions/reconcile-mailbox/names.ts'
import { reconcileMailbox } from '../../../functions/reconcile-mailbox/reconcile.ts'
import {
  ESPW,
  SYNC_TARGET_NAME_ANNOTATION,
  SYNC_TARGETS,
  WORKSPACES,
} from '../../../lib/apis/gvr.ts'
import { readLease, renewLease } from '../../../lib/edge/lease.ts'
import { createHubClient, type HubClient } from '../../../lib/hub/client.ts'
import { SYNC_TARGET_INDEX, wantedMailboxes } from '../../../lib/hub/uid-index.ts'
import { silentLogger } from '../../../lib/log.ts'
import { runKeys } from '../../../lib/reconcile/run.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
let client: HubClient

const st = (name: string) => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'SyncTarget',
  metadata: { name, labels: { id: name } },
})

const workspace = (name: string) => ({
  apiVersion: 'tenancy.kcp.io/v1alpha1',
  kind: 'Workspace',
  metadata: { name },
})

beforeAll(async () => {
  hub = await createTestHub()
  client = createHubClient(hub.deps, { fieldManager: 'test' })
  await client.create('root', WORKSPACES, workspace('imw-1'))
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
    const imw = (await client.space('root:imw-1')).id
    const lease = { renewedAt: 1000 }
    await renewLease(hub.deps.kv, imw, old?.metadata.uid ?? '', lease.renewedAt)
    await client.delete('root:imw-1', SYNC_TARGETS, 'florin')
    expect(
      (await reconcileMailbox({ client, kv: hub.deps.kv, log: silentLogger }, oldKey)).outcome
    ).toBe('deleted')
    // the edge's lease stays while its mailbox does
    expect(await readLease(hub.deps.kv, imw, old?.metadata.uid ?? '')).toEqual(lease)
    await hub.settle()
    expect(await client.get(ESPW, WORKSPACES, oldKey)).toBeUndefined()
    expect(
      (await reconcileMailbox({ client, kv: hub.deps.kv, log: silentLogger }, oldKey)).outcome
    ).toBe('absent')
    // Neither the SyncTarget nor its mailbox is left: the uid index and the lease forget it.
    expect(await readLease(hub.deps.kv, imw, old?.metadata.uid ?? '')).toBeUndefined()
    expect(
      await hub.deps.kv.get(SYNC_TARGET_INDEX, mailboxName(imw, old?.metadata.uid ?? ''))
    ).toBeUndefined()
    expect(await wantedMailboxes(hub.deps.kv, { limit: 100 })).not.toContain(oldKey)
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

  it('pages through wanted and orphaned mailboxes in name order, reading a bounded page of each', async () => {
    const space = 'root:imw-paging'
    await client.create('root', WORKSPACES, workspace('imw-paging'))
    const targets = []
    for (let i = 0; i < 7; i++) targets.push(await client.create(space, SYNC_TARGETS, st(`p-${i}`)))
    const run = (key: string) =>
      reconcileMailbox({ client, kv: hub.deps.kv, log: silentLogger }, key)
    // Three with a mailbox, then two of those SyncTargets gone: orphans only the spaces list.
    for (const t of targets.slice(0, 3)) await run(mailboxOf(t)!)
    for (const t of targets.slice(0, 2)) {
      await client.delete(space, SYNC_TARGETS, t.metadata.name ?? '')
      await hub.deps.kv.delete(SYNC_TARGET_INDEX, mailboxOf(t)!)
    }
    const reads: number[] = []
    const counted = {
      ...hub.deps.kv,
      list: ((ns, prefix, page) => {
        reads.push(page?.limit ?? Number.POSITIVE_INFINITY)
        return hub.deps.kv.list(ns, prefix, page)
      }) as typeof hub.deps.kv.list,
    }
    const c = mailboxController(client, counted)
    const seen: string[] = []
    let cursor: string | undefined
    for (let pages = 0; pages < 100; pages++) {
      const page = await c.listKeys(cursor, 2)
      expect(page.keys.length).toBeLessThanOrEqual(2)
      seen.push(...page.keys)
      if (!page.next) break
      cursor = page.next
    }
    expect(reads.every((limit) => limit === 2)).toBe(true)
    expect(seen).toEqual([...new Set(seen)].sort())
    const existing = (await client.list(ESPW, WORKSPACES)).map((w) => w.metadata.name ?? '')
    const wanted = (await client.list('*', SYNC_TARGETS)).map((s) => mailboxOf(s)!)
    expect(seen).toEqual([...new Set([...existing, ...wanted])].sort())
    expect(seen).toContain(mailboxOf(targets[0]!))
    expect(seen).toContain(mailboxOf(targets[6]!))
  })

  it('runs a batch of keys several at a time, each creating its own mailbox once', async () => {
    await client.create('root', WORKSPACES, workspace('imw-batch'))
    const targets = []
    for (let i = 0; i < 40; i++)
      targets.push(await client.create('root:imw-batch', SYNC_TARGETS, st(`batch-${i}`)))
    const keys = targets.map((t) => mailboxOf(t)!)
    let inFlight = 0
    let most = 0
    const counting: HubClient = {
      ...client,
      create: (async (...args: Parameters<HubClient['create']>) => {
        most = Math.max(most, ++inFlight)
        try {
          return await client.create(...args)
        } finally {
          inFlight--
        }
      }) as HubClient['create'],
    }
    const c = mailboxController(counting, hub.deps.kv)
    expect(c.concurrency).toBe(CONCURRENCY)
    const runs = await runKeys(c, [...keys, ...keys], silentLogger)
    expect(runs.map((r) => r.outcome)).toEqual(keys.map(() => 'created'))
    expect(most).toBeGreaterThan(1)
    expect(most).toBeLessThanOrEqual(CONCURRENCY)
    for (const [i, key] of keys.entries())
      expect(
        (await client.get(ESPW, WORKSPACES, key))?.metadata.annotations?.[
          SYNC_TARGET_NAME_ANNOTATION
        ]
      ).toBe(`batch-${i}`)
    expect((await runKeys(c, keys, silentLogger)).every((r) => r.outcome === 'unchanged')).toBe(
      true
    )
  })

  it("reads a batch's uid-index entries ahead in one read; a run whose entry it missed reads its own", async () => {
    await client.create('root', WORKSPACES, workspace('imw-ahead'))
    const keys: string[] = []
    for (let i = 0; i < 6; i++)
      keys.push(mailboxOf(await client.create('root:imw-ahead', SYNC_TARGETS, st(`ahead-${i}`)))!)
    const kv = hub.deps.kv
    const seen = { getMany: [] as number[], gets: 0 }
    const withAhead = (
      ahead: (ns: string, k: readonly string[]) => ReturnType<typeof kv.getMany>
    ) => ({
      ...kv,
      getMany: ((ns: string, k: readonly string[]) => {
        if (ns === SYNC_TARGET_INDEX) seen.getMany.push(k.length)
        return ahead(ns, k)
      }) as typeof kv.getMany,
      get: ((ns: string, key: string) => {
        if (ns === SYNC_TARGET_INDEX) seen.gets++
        return kv.get(ns, key)
      }) as typeof kv.get,
    })
    const runs = await runKeys(mailboxController(client, withAhead(kv.getMany)), keys, silentLogger)
    expect(runs.map((r) => r.outcome)).toEqual(keys.map(() => 'created'))
    expect(seen).toEqual({ getMany: [6], gets: 0 })
    // The read ahead found nothing, or failed: each run reads its own entry and still converges.
    for (const ahead of [async () => new Map(), async () => Promise.reject(new Error('down'))]) {
      seen.gets = 0
      const c = mailboxController(client, withAhead(ahead as typeof kv.getMany))
      const again = await runKeys(c, keys, silentLogger)
      expect(again.map((r) => r.outcome)).toEqual(keys.map(() => 'unchanged'))
      expect(seen.gets).toBe(keys.length)
    }
  })

  it("reads a batch's SyncTargets and Workspaces ahead, one read each, not a get per run", async () => {
    await client.create('root', WORKSPACES, workspace('imw-read-ahead'))
    const keys: string[] = []
    for (let i = 0; i < 5; i++) {
      const made = await client.create('root:imw-read-ahead', SYNC_TARGETS, st(`ra-${i}`))
      keys.push(mailboxOf(made)!)
    }
    const calls = { gets: 0, getMany: [] as string[] }
    const counting: HubClient = {
      ...client,
      get: ((...args: Parameters<HubClient['get']>) => {
        calls.gets++
        return client.get(...args)
      }) as HubClient['get'],
      getMany: ((...args: Parameters<HubClient['getMany']>) => {
        calls.getMany.push(`${args[1].resource}:${args[2].length}`)
        return client.getMany(...args)
      }) as HubClient['getMany'],
    }
    const c = mailboxController(counting, hub.deps.kv)
    const runs = await runKeys(c, keys, silentLogger)
    expect(runs.map((r) => r.outcome)).toEqual(keys.map(() => 'created'))
    expect(calls.gets).toBe(0)
    expect(calls.getMany.sort()).toEqual(['synctargets:5', 'workspaces:5'])
    // Taken once: a second session sees the mailboxes its first created.
    expect((await runKeys(c, keys, silentLogger)).map((r) => r.outcome)).toEqual(
      keys.map(() => 'unchanged')
    )
    // A SyncTarget deleted: the read ahead finds it absent and the mailbox goes.
    const [first] = keys
    await client.delete('root:imw-read-ahead', SYNC_TARGETS, 'ra-0')
    calls.gets = 0
    expect((await runKeys(c, [first!], silentLogger)).map((r) => r.outcome)).toEqual(['deleted'])
    expect(calls.gets).toBe(0)
  })

  it('a run whose read ahead went stale meanwhile fails its write and converges on its next run', async () => {
    await client.create('root', WORKSPACES, workspace('imw-stale'))
    const key = mailboxOf(await client.create('root:imw-stale', SYNC_TARGETS, st('stale-0')))!
    const c = mailboxController(client, hub.deps.kv)
    const session = c.session?.([key])
    // The Workspace appears after the batch read ahead (another run, a resync elsewhere).
    await new Promise((r) => setTimeout(r, 50))
    await reconcileMailbox({ client, kv: hub.deps.kv, log: silentLogger }, key)
    await expect(session?.reconcile(key)).rejects.toMatchObject({ code: 409 })
    expect((await runKeys(c, [key], silentLogger)).map((r) => r.outcome)).toEqual(['unchanged'])
  })
})
