/**
 * Shared manifests (lib/store/shared-manifest*.ts, shared-membership.ts, shared-feed.ts) on a real
 * DynamoDB-protocol store: mailboxes given the same share key hold their live copies through one
 * shared manifest, a change of content is one write whatever the number of members, and each
 * member still reads, and watches, its own copies (own uid, creation time, reported status).
 */
import { GetItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb'
import { afterEach, describe, expect, it } from 'vitest'
import { createDynamoStore } from '../../../lib/store/dynamo-store.ts'
import { entryKey } from '../../../lib/store/projection-diff.ts'
import type { DesiredEntry, Manifest } from '../../../lib/store/projection-types.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { sharedKey } from '../../../lib/store/shared-manifest.ts'
import type { ChangeEvent } from '../../../lib/store/types.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { configMaps, manualClock } from './fixtures.ts'
import { cmEntry, NOW, summary } from './projection-fixtures.ts'

let t: TestStore | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

const MAILBOXES = ['mb1', 'mb2', 'mb3']

/** A write; `share` null: written as the mailbox's own. */
const w = (desired: DesiredEntry[], known: Manifest | null, share: string | null = 'k') => ({
  desired,
  expectedVersion: known?.version ?? null,
  known,
  now: NOW,
  ...(share === null ? {} : { share }),
})

async function writeAll(store: TestStore, desired: DesiredEntry[], share: string | null = 'k') {
  const current = await store.projections.getManifests(MAILBOXES)
  const out = await store.projections.writeManifests(
    MAILBOXES.map((mailbox) => ({ mailbox, w: w(desired, current.get(mailbox) ?? null, share) }))
  )
  for (const o of out) if (!o.ok) throw o.error
  return out.map((o) => (o.ok ? o.result : undefined))
}

async function watch(store: TestStore, mailbox: string, sinceRv = 0): Promise<ChangeEvent[]> {
  const shared = await store.projections.sharedFeed(mailbox)
  const opts = { ...configMaps(mailbox), sinceRv, ...(shared ? { shared } : {}) }
  return (await store.objects.changes(opts)).events
}

describe('shared manifests', () => {
  it('puts the live copies of mailboxes with one share key in one shared manifest', async () => {
    t = await createTestStore()
    await writeAll(t, [cmEntry('a'), cmEntry('b')])
    const read = await t.projections.getManifests(MAILBOXES)
    const uids = new Set<string>()
    for (const mb of MAILBOXES) {
      const m = read.get(mb)
      expect(m?.entries.map((e) => e.name)).toEqual(['a', 'b'])
      expect(m?.shared?.membership.id).toMatch(/^sm\./)
      for (const e of m?.entries ?? []) uids.add(e.uid)
      // The joins are each mailbox's own writes: ADDED at its rv.
      expect(summary(await watch(t, mb))).toEqual([
        `ADDED ns1/a@${m?.version}`,
        `ADDED ns1/b@${m?.version}`,
      ])
    }
    // Every copy has its own uid.
    expect(uids.size).toBe(6)
    const ids = new Set([...read.values()].map((m) => m.shared?.membership.id))
    expect(ids.size).toBe(1)
  })

  it('writes a change of shared content once, and each member reads and watches it as its own', async () => {
    const counter = createRequestCounter()
    t = await createTestStore({ counter })
    await writeAll(t, [cmEntry('a'), cmEntry('b')])
    const before = await t.projections.getManifests(MAILBOXES)
    counter.reset()
    const results = await writeAll(t, [cmEntry('a', 'ns1', { k: 'v2' }), cmEntry('b')])
    // The new body and the shared manifest are put, no mailbox manifest. Reads: the manifests with
    // their shared manifest (writeAll's own read, two batches), the shared manifest once more by
    // the write, and the versions of the members that wrote nothing (their `known` still holds);
    // one rv; the shared manifest's log item.
    expect(counter.snapshot()).toEqual({
      BatchGetItem: 4,
      PutItem: 2,
      UpdateItem: 1,
      BatchWriteItem: 1,
    })
    expect(results.every((r) => r?.written && r.changed === 1)).toBe(true)
    const after = await t.projections.getManifests(MAILBOXES)
    const sharedVersion = after.get('mb1')?.shared?.version ?? 0
    for (const mb of MAILBOXES) {
      const was = before.get(mb)!
      const now = after.get(mb)!
      // The manifest itself was not written.
      expect(now.version).toBe(was.version)
      const [a0, b0] = was.entries
      const [a1, b1] = now.entries
      expect(a1).toMatchObject({ uid: a0?.uid, created: a0?.created, rv: sharedVersion })
      expect(a1?.generation).toBe((a0?.generation ?? 0) + 1)
      expect(a1?.hash).not.toBe(a0?.hash)
      expect(b1).toEqual(b0)
      const events = await watch(t, mb, was.version)
      expect(summary(events)).toEqual([`MODIFIED ns1/a@${sharedVersion}`])
      expect(events[0]?.object.metadata.uid).toBe(a0?.uid)
      expect(events[0]?.object.metadata.resourceVersion).toBe(String(sharedVersion))
      expect((events[0]?.object as { data?: unknown } | undefined)?.data).toEqual({ k: 'v2' })
      expect(events[0]?.cluster).toBe(mb)
      // A get reads the same copy.
      const got = await t.projections.getManifest(mb)
      expect(got?.entries[0]).toEqual(a1)
    }
  })

  it('gives the shared change the member reported state on its watch event', async () => {
    t = await createTestStore()
    await writeAll(t, [cmEntry('a')])
    const m = (await t.projections.getManifest('mb2'))!
    const key = { group: '', resource: 'configmaps', namespace: 'ns1', name: 'a' }
    const uid = m.entries[0]!.uid
    await t.projections.putCopyStates('mb2', [
      { key, state: { uid, status: { phase: 'Here' } }, expectedRv: null },
    ])
    const mark = await t.objects.currentRv()
    await writeAll(t, [cmEntry('a', 'ns1', { k: 'v2' })])
    const events = await watch(t, 'mb2', mark)
    expect(events.map((e) => e.type)).toEqual(['MODIFIED'])
    expect(events[0]?.object.status).toEqual({ phase: 'Here' })
  })

  it('writes only a member whose own entries change (a tombstone), not the others', async () => {
    const counter = createRequestCounter()
    t = await createTestStore({ counter })
    await writeAll(t, [cmEntry('a'), cmEntry('b')])
    const current = await t.projections.getManifests(MAILBOXES)
    counter.reset()
    // mb1 still holds b, being removed; the others dropped b too but their edges confirmed it.
    const removing = { ...cmEntry('b'), removing: '2030-01-02T03:04:05Z' }
    const out = await t.projections.writeManifests([
      { mailbox: 'mb1', w: w([cmEntry('a'), removing], current.get('mb1')!) },
      { mailbox: 'mb2', w: w([cmEntry('a')], current.get('mb2')!) },
    ])
    for (const o of out) expect(o.ok).toBe(true)
    const after = await t.projections.getManifests(['mb1', 'mb2'])
    expect(after.get('mb1')?.entries.map((e) => [e.name, e.removing ?? ''])).toEqual([
      ['a', ''],
      ['b', '2030-01-02T03:04:05Z'],
    ])
    expect(after.get('mb2')?.entries.map((e) => e.name)).toEqual(['a'])
    // Both moved to the shared manifest of {a}: a new one, and a manifest put each.
    expect(after.get('mb1')?.shared?.membership.id).toBe(after.get('mb2')?.shared?.membership.id)
    expect(after.get('mb1')?.shared?.membership.id).not.toBe(
      current.get('mb1')?.shared?.membership.id
    )
    // a keeps its uid through the move.
    expect(after.get('mb1')?.entries[0]?.uid).toBe(current.get('mb1')?.entries[0]?.uid)
    expect(counter.snapshot().PutItem).toBe(3)
    // A later change of the tombstone alone is mb1's own write; the shared manifest is untouched.
    counter.reset()
    const later = { ...removing, removing: '2030-01-02T03:05:00Z' }
    const m1 = after.get('mb1')!
    await t.projections.writeManifest('mb1', w([cmEntry('a'), later], m1))
    expect(counter.snapshot().PutItem).toBe(1)
    const m1b = (await t.projections.getManifest('mb1'))!
    expect(m1b.shared?.version).toBe(m1.shared?.version)
    expect(m1b.entries[1]?.removing).toBe('2030-01-02T03:05:00Z')
  })

  it('keeps copies when a mailbox joins or leaves: same uids, no events for unchanged copies', async () => {
    t = await createTestStore()
    // Written alone first, as a release without sharing did.
    await writeAll(t, [cmEntry('a')], null)
    const alone = (await t.projections.getManifest('mb1'))!
    expect(alone.shared).toBeUndefined()
    await writeAll(t, [cmEntry('a')])
    const joined = (await t.projections.getManifest('mb1'))!
    expect(joined.shared).toBeDefined()
    expect(joined.entries).toEqual(alone.entries)
    expect(await watch(t, 'mb1', alone.version)).toEqual([])
    // A shared change, then the mailbox leaves: it keeps the changed copy as its own.
    await writeAll(t, [cmEntry('a', 'ns1', { k: 'v2' })])
    const changed = (await t.projections.getManifest('mb1'))!
    await writeAll(t, [cmEntry('a', 'ns1', { k: 'v2' })], null)
    const left = (await t.projections.getManifest('mb1'))!
    expect(left.shared).toBeUndefined()
    expect(await t.projections.sharedFeed('mb1')).toBeUndefined()
    expect(left.entries).toEqual(changed.entries)
    // A watch from before the shared change, read after the leave, still learns the change: the
    // leaving write logs the shared copies again.
    const sinceJoin = await watch(t, 'mb1', joined.version)
    expect(summary(sinceJoin)).toEqual([`MODIFIED ns1/a@${left.version}`])
    expect((sinceJoin[0]?.object as { data?: unknown } | undefined)?.data).toEqual({ k: 'v2' })
    // Later changes of the shared manifest no longer reach it.
    await t.projections.writeManifests(
      ['mb2', 'mb3'].map((mb) => ({ mailbox: mb, w: w([cmEntry('a', 'ns1', { k: 'v3' })], null) }))
    )
    expect((await t.projections.getManifest('mb1'))?.entries).toEqual(left.entries)
  })

  it('writes a mailbox whose content differs under the same share key as its own', async () => {
    t = await createTestStore()
    const out = await t.projections.writeManifests([
      { mailbox: 'mb1', w: w([cmEntry('a')], null) },
      { mailbox: 'mb2', w: w([cmEntry('a', 'ns1', { other: 'x' })], null) },
    ])
    for (const o of out) expect(o.ok).toBe(true)
    const read = await t.projections.getManifests(['mb1', 'mb2'])
    expect(read.get('mb1')?.shared).toBeDefined()
    expect(read.get('mb2')?.shared).toBeUndefined()
    const a = read.get('mb2')?.entries[0]
    expect(a && entryKey(a)).toBe('/configmaps/ns1/a')
  })

  it('merges a member mailbox shared changes with its own in rv order, within the limit', async () => {
    t = await createTestStore()
    await writeAll(t, [cmEntry('a'), cmEntry('b')])
    const start = (await t.projections.getManifest('mb1'))!
    const start2 = (await t.projections.getManifest('mb2'))!
    // Shared change, own change (a tombstone for c... here: a new own copy), shared change.
    await writeAll(t, [cmEntry('a', 'ns1', { v: '2' }), cmEntry('b')])
    const m = (await t.projections.getManifest('mb1'))!
    const removing = { ...cmEntry('c'), removing: '2030-01-02T03:04:05Z' }
    await t.projections.writeManifest(
      'mb1',
      w([cmEntry('a', 'ns1', { v: '2' }), cmEntry('b'), removing], m)
    )
    const current = await t.projections.getManifests(MAILBOXES)
    await t.projections.writeManifests(
      MAILBOXES.map((mb) => {
        const desired = [cmEntry('a', 'ns1', { v: '2' }), cmEntry('b', 'ns1', { v: '2' })]
        return {
          mailbox: mb,
          w: w(mb === 'mb1' ? [...desired, removing] : desired, current.get(mb)!),
        }
      })
    )
    const all = await watch(t, 'mb1', start.version)
    expect(all.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual([
      'MODIFIED a',
      'ADDED c',
      'MODIFIED b',
    ])
    const rvs = all.map((e) => e.rv)
    expect(rvs).toEqual([...rvs].sort((x, y) => x - y))
    // Paged by the limit, in the same order.
    const shared = await t.projections.sharedFeed('mb1')
    const first = await t.objects.changes({
      ...configMaps('mb1'),
      sinceRv: start.version,
      limit: 2,
      ...(shared ? { shared } : {}),
    })
    expect(first.events.map((e) => e.object.metadata.name)).toEqual(['a', 'c'])
    expect(first.more).toBe(true)
    const next = await t.objects.changes({
      ...configMaps('mb1'),
      sinceRv: first.events[1]!.rv,
      ...(shared ? { shared } : {}),
    })
    expect(next.events.map((e) => e.object.metadata.name)).toEqual(['b'])
    // Another member sees neither mb1's own copy nor anything twice.
    expect((await watch(t, 'mb2', start2.version)).map((e) => e.object.metadata.name)).toEqual([
      'a',
      'b',
    ])
  })

  it('sweeps a shared manifest no mailbox names, and keeps one that is named', async () => {
    const clock = manualClock()
    t = await createTestStore({ now: clock.now, logRetentionMs: 60_000 })
    await writeAll(t, [cmEntry('a')])
    const first = (await t.projections.getManifest('mb1'))!.shared!.membership.id
    // Every mailbox moves to the shared manifest of {a, b}.
    await writeAll(t, [cmEntry('a'), cmEntry('b')])
    const second = (await t.projections.getManifest('mb1'))!.shared!.membership.id
    expect(second).not.toBe(first)
    clock.advance(200_000)
    await t.sweepChangeLog()
    await t.sweepChangeLog()
    const exists = async (id: string) => {
      const out = await t!.client.send(
        new GetItemCommand({ TableName: t!.tableName, Key: sharedKey(id), ConsistentRead: true })
      )
      return out.Item !== undefined
    }
    expect(await exists(first)).toBe(false)
    expect(await exists(second)).toBe(true)
    // Its members still read their copies, and a change still reaches them.
    await writeAll(t, [cmEntry('a', 'ns1', { v: '2' }), cmEntry('b')])
    const read = await t.projections.getManifests(MAILBOXES)
    for (const m of read.values()) expect(m.entries.map((e) => e.generation)).toEqual([2, 1])
  })

  it('reads a member in one request once its store knows which shared manifest it belongs to', async () => {
    const counter = createRequestCounter()
    t = await createTestStore({ counter })
    await writeAll(t, [cmEntry('a')])
    const reader = createDynamoStore({ client: t.client, tableName: t.tableName })
    counter.reset()
    const first = await reader.projections.getManifest('mb1')
    expect(counter.snapshot()).toEqual({ GetItem: 1, BatchGetItem: 1 })
    counter.reset()
    expect(await reader.projections.getManifest('mb1')).toEqual(first)
    expect(counter.snapshot()).toEqual({ BatchGetItem: 1 })
    // The mailbox leaves: the hint is wrong once, then forgotten.
    await writeAll(t, [cmEntry('a')], null)
    counter.reset()
    const left = await reader.projections.getManifest('mb1')
    expect(left?.shared).toBeUndefined()
    expect(left?.entries.map((e) => e.uid)).toEqual(first?.entries.map((e) => e.uid))
    counter.reset()
    await reader.projections.getManifest('mb1')
    expect(counter.snapshot()).toEqual({ GetItem: 1 })
  })

  it('shows a change of shared content on the cross-space feed once per member, as its copy', async () => {
    t = await createTestStore()
    await writeAll(t, [cmEntry('a')])
    const before = await t.projections.getManifests(MAILBOXES)
    const mark = await t.objects.currentRv()
    await writeAll(t, [cmEntry('a', 'ns1', { v: '2' })])
    const across = async (sinceRv: number) =>
      (await t!.objects.changes({ cluster: '*', group: '', resource: 'configmaps', sinceRv }))
        .events
    const events = await across(mark)
    expect(events.map((e) => [e.type, e.cluster]).sort()).toEqual(
      MAILBOXES.map((mb) => ['MODIFIED', mb])
    )
    for (const e of events) {
      const own = before.get(e.cluster)?.entries[0]
      expect(e.object.metadata.uid).toBe(own?.uid)
      expect(e.object.metadata.annotations?.['kcp.io/cluster']).toBe(e.cluster)
      expect(e.object.metadata.generation).toBe((own?.generation ?? 0) + 1)
      expect((e.object as { data?: unknown }).data).toEqual({ v: '2' })
    }
    // mb1 leaves (its own write logs its copy), then the next change reaches the other two only.
    const m1 = (await t.projections.getManifest('mb1'))!
    await t.projections.writeManifest('mb1', w([cmEntry('a', 'ns1', { v: '2' })], m1, null))
    const left = await t.objects.currentRv()
    const rest = await t.projections.getManifests(['mb2', 'mb3'])
    await t.projections.writeManifests(
      ['mb2', 'mb3'].map((mb) => ({
        mailbox: mb,
        w: w([cmEntry('a', 'ns1', { v: '3' })], rest.get(mb)!),
      }))
    )
    expect((await across(left)).map((e) => e.cluster).sort()).toEqual(['mb2', 'mb3'])
    // A deleted mailbox is no member any more either.
    await t.projections.deleteManifest('mb2')
    const gone = await t.objects.currentRv()
    const mb3 = (await t.projections.getManifest('mb3'))!
    await t.projections.writeManifest('mb3', w([cmEntry('a', 'ns1', { v: '4' })], mb3))
    expect((await across(gone)).map((e) => e.cluster)).toEqual(['mb3'])
  })
})

describe('manifests read for their content', () => {
  it('reads members holding every copy through their shared manifest without their body', async () => {
    t = await createTestStore()
    await writeAll(t, [cmEntry('a'), cmEntry('b')])
    const full = await t.projections.getManifests(MAILBOXES)
    // mb3 was written before items counted their own entries (`oc`): it is read in full.
    await t.client.send(
      new UpdateItemCommand({
        TableName: t.tableName,
        Key: { pk: { S: 'mf#mb3' }, sk: { S: '-' } },
        UpdateExpression: 'REMOVE oc',
      })
    )
    const read = await t.projections.getManifestContents([...MAILBOXES, 'absent'])
    expect([...read.keys()].sort()).toEqual(MAILBOXES)
    expect(MAILBOXES.map((mb) => read.get(mb)?.viaShared)).toEqual([true, true, false])
    expect(read.get('mb3')?.manifest).toEqual(full.get('mb3'))
    for (const mb of ['mb1', 'mb2']) {
      const { manifest } = read.get(mb)!
      const whole = full.get(mb)!
      expect(manifest.version).toBe(whole.version)
      expect(manifest.shared).toEqual(whole.shared)
      const content = (m: Manifest) => m.entries.map((e) => [entryKey(e), e.hash, e.version])
      expect(content(manifest)).toEqual(content(whole))
    }
  })
})
