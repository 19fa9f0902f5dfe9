import { afterEach, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import type { FaultCall } from '../../../lib/store/dynamo-client.ts'
import { createDynamoStore } from '../../../lib/store/dynamo-store.ts'
import type { DesiredEntry, Manifest } from '../../../lib/store/projection-types.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { apiError } from './fixtures.ts'
import { cmEntry, NOW, secretEntry } from './projection-fixtures.ts'

let t: TestStore | undefined

/** `t`'s writeManifest at NOW. */
const write = (
  mailbox: string,
  desired: readonly DesiredEntry[],
  expectedVersion: number | null,
  known?: Manifest | null
) => t!.projections.writeManifest(mailbox, { desired, expectedVersion, now: NOW, known })
afterEach(async () => {
  await t?.close()
  t = undefined
})

/** Counts PutItems of projection bodies (pk `pb#…`). */
function bodyPutCounter() {
  let puts = 0
  const fault = (call: FaultCall) => {
    const item = (call.input as { Item?: { pk?: { S?: string } } }).Item
    if (call.op === 'PutItem' && call.phase === 'before' && item?.pk?.S?.startsWith('pb#')) puts++
  }
  return { fault, puts: () => puts }
}

const keys = (m: { entries: { namespace: string; name: string }[] } | undefined) =>
  m?.entries.map((e) => `${e.namespace}/${e.name}`)

describe('bodies', () => {
  it('hashes canonical JSON, stores each body once and reads it back', async () => {
    const counter = createRequestCounter()
    t = await createTestStore({ counter })
    const a: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: {} }
    const reordered: KubeObject = {
      data: {},
      metadata: { name: 'a' },
      kind: 'ConfigMap',
      apiVersion: 'v1',
    }
    const [h1, h2] = await t.projections.putBodies([a, reordered])
    expect(h1).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(h2).toBe(h1)
    counter.reset()
    expect(await t.projections.putBodies([a])).toEqual([h1])
    expect(counter.total()).toBe(0)
    expect([...(await t.projections.getBodies([h1!, 'missing'])).entries()]).toEqual([[h1, a]])
    expect(counter.snapshot()).toEqual({ BatchGetItem: 1 }) // only the miss is read
    // Another process (no cache) finds it stored: no error; it learns the body on the way.
    const other = createDynamoStore({ client: t.client, tableName: t.tableName })
    counter.reset()
    expect(await other.projections.putBodies([a])).toEqual([h1])
    expect(counter.snapshot()).toEqual({ PutItem: 1, BatchGetItem: 1 })
    counter.reset()
    expect((await other.projections.getBodies([h1!, h1!])).get(h1!)).toEqual(a)
    expect(await other.projections.putBodies([reordered])).toEqual([h1])
    expect(counter.snapshot()).toEqual({})
  })

  it('reads many bodies in batches of 100', async () => {
    const counter = createRequestCounter()
    t = await createTestStore({ counter })
    const bodies = Array.from({ length: 230 }, (_, i) => cmEntry(`cm${i}`).body)
    const hashes = await t.projections.putBodies(bodies)
    const other = createDynamoStore({ client: t.client, tableName: t.tableName })
    counter.reset()
    const read = await other.projections.getBodies(hashes)
    expect(read.size).toBe(230)
    expect(read.get(hashes[117]!)).toEqual(bodies[117])
    expect(counter.snapshot()).toEqual({ BatchGetItem: 3 })
  })

  it('refuses a body over 1 MiB with 413', async () => {
    t = await createTestStore()
    const big = cmEntry('big', 'ns1', { x: 'x'.repeat(1_100_000) }).body
    expect((await apiError(t.projections.putBodies([big]))).code).toBe(413)
  })

  it('writes a body shared by 50 mailboxes once', async () => {
    const bodies = bodyPutCounter()
    const counter = createRequestCounter()
    t = await createTestStore({ counter, fault: bodies.fault })
    const desired = [cmEntry('a'), cmEntry('b'), secretEntry('s')]
    await write('mb0', desired, null)
    expect(bodies.puts()).toBe(3)
    counter.reset()
    for (let i = 1; i < 50; i++) await write(`mb${i}`, desired, null)
    expect(bodies.puts()).toBe(3)
    // Per mailbox: manifest GetItem, rv UpdateItem, manifest PutItem, one BatchWriteItem (K = 2).
    expect(counter.snapshot()).toEqual({
      GetItem: 49,
      UpdateItem: 49,
      PutItem: 49,
      BatchWriteItem: 49,
    })
  })
})

describe('manifests', () => {
  it('creates a manifest in key order with fresh uids, generation 1 and the write rv', async () => {
    t = await createTestStore()
    const res = await write(
      'mb1',
      [cmEntry('b'), secretEntry('s'), cmEntry('a', 'ns2'), cmEntry('a')],
      null
    )
    expect(res).toMatchObject({ added: 4, changed: 0, removed: 0, written: true })
    const m = res.manifest
    expect(keys(m)).toEqual(['ns1/a', 'ns1/b', 'ns2/a', 'ns1/s'])
    expect(m.entries.every((e) => e.rv === m.version && e.generation === 1)).toBe(true)
    expect(m.entries.every((e) => e.created === '2030-01-02T03:04:05Z')).toBe(true)
    expect(new Set(m.entries.map((e) => e.uid)).size).toBe(4)
    expect(await t.projections.getManifest('mb1')).toEqual(m)
    expect(await t.projections.getManifest('other')).toBeUndefined()
  })

  it('writes nothing when the desired entries are unchanged', async () => {
    const counter = createRequestCounter()
    t = await createTestStore({ counter })
    const first = await write('mb1', [cmEntry('a'), cmEntry('b')], null)
    counter.reset()
    const again = await t.projections.writeManifest('mb1', {
      desired: [cmEntry('b'), cmEntry('a')],
      expectedVersion: first.manifest.version,
      now: new Date(),
    })
    expect(again).toEqual({ ...first, added: 0, written: false })
    expect(counter.snapshot()).toEqual({ GetItem: 1 })
    const none = await write('empty', [], null)
    expect(none).toMatchObject({ written: false, manifest: { version: 0, entries: [] } })
    expect(await t.projections.getManifest('empty')).toBeUndefined()
    const created = await write('empty', [cmEntry('a')], 0)
    expect(created.written).toBe(true)
  })

  it('bumps rv for changed entries only, generation only on spec changes, keeping uids', async () => {
    t = await createTestStore()
    const v1 = await write('mb1', [cmEntry('a'), cmEntry('b'), cmEntry('c'), cmEntry('gone')], null)
    const labelled = cmEntry('b')
    labelled.body.metadata.labels = { app: 'b', extra: 'yes' }
    const v2 = await t.projections.writeManifest('mb1', {
      desired: [cmEntry('a', 'ns1', { k: 'changed' }), labelled, cmEntry('c'), cmEntry('new')],
      expectedVersion: v1.manifest.version,
      now: new Date('2031-01-01T00:00:00Z'),
    })
    expect(v2).toMatchObject({ added: 1, changed: 2, removed: 1, written: true })
    expect(v2.manifest.version).toBeGreaterThan(v1.manifest.version)
    const before = new Map(v1.manifest.entries.map((e) => [e.name, e]))
    const after = new Map(v2.manifest.entries.map((e) => [e.name, e]))
    expect(keys(v2.manifest)).toEqual(['ns1/a', 'ns1/b', 'ns1/c', 'ns1/new'])
    expect(after.get('a')).toMatchObject({ rv: v2.manifest.version, generation: 2 })
    expect(after.get('b')).toMatchObject({ rv: v2.manifest.version, generation: 1 })
    expect(after.get('c')).toEqual(before.get('c'))
    expect(after.get('new')).toMatchObject({ generation: 1, created: '2031-01-01T00:00:00Z' })
    for (const name of ['a', 'b']) {
      expect(after.get(name)?.uid).toBe(before.get(name)?.uid)
      expect(after.get(name)?.created).toBe(before.get(name)?.created)
      // The version that first added the copy stays with it through changes.
      expect(after.get(name)?.added).toBe(v1.manifest.version)
    }
    expect(after.get('new')?.added).toBe(v2.manifest.version)
    const reread = await t.projections.getManifest('mb1')
    expect(reread?.entries.map((e) => e.added)).toEqual(v2.manifest.entries.map((e) => e.added))
  })

  it('is a Conflict on a stale or missing precondition, and logs nothing for the loser', async () => {
    t = await createTestStore()
    const v1 = await write('mb1', [cmEntry('a')], null)
    const cases: [string, number | null][] = [
      ['absent expected, but present', null],
      ['stale version', v1.manifest.version - 1],
    ]
    for (const [, expected] of cases) {
      const e = await apiError(write('mb1', [cmEntry('b')], expected))
      expect([e.code, e.reason]).toEqual([409, 'Conflict'])
    }
    const e = await apiError(write('nope', [cmEntry('b')], 5))
    expect(e.code).toBe(409)
    // Two writers on the same version: exactly one wins, one change-log entry.
    const results = await Promise.allSettled([
      write('mb1', [cmEntry('x')], v1.manifest.version),
      write('mb1', [cmEntry('y')], v1.manifest.version),
    ])
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    const ref = { cluster: 'mb1', group: '', resource: 'configmaps' }
    const { events } = await t.objects.changes({ ...ref, sinceRv: v1.manifest.version })
    expect(events).toHaveLength(2) // DELETED a + ADDED x|y, one log item
    expect(new Set(events.map((ev) => ev.rv)).size).toBe(1)
  })

  it('plans from a manifest the caller read (no second read); a stale one is a Conflict', async () => {
    const counter = createRequestCounter()
    t = await createTestStore({ counter })
    const v1 = await write('mb1', [cmEntry('a')], null)
    counter.reset()
    const v2 = await write('mb1', [cmEntry('a'), cmEntry('b')], v1.manifest.version, v1.manifest)
    expect(v2).toMatchObject({ added: 1, changed: 0, removed: 0, written: true })
    expect(counter.snapshot().GetItem ?? 0).toBe(0)
    expect(await t.projections.getManifest('mb1')).toEqual(v2.manifest)
    // A caller whose read is older than the stored manifest loses on the precondition.
    const e = await apiError(write('mb1', [cmEntry('c')], v1.manifest.version, v1.manifest))
    expect([e.code, e.reason]).toEqual([409, 'Conflict'])
    expect(keys(await t.projections.getManifest('mb1'))).toEqual(['ns1/a', 'ns1/b'])
    // null: the caller saw none; creating succeeds once, then it is a Conflict.
    const fresh = await write('mb2', [cmEntry('a')], null, null)
    expect(fresh.written).toBe(true)
    const again = await apiError(write('mb2', [cmEntry('b')], null, null))
    expect(again.code).toBe(409)
  })

  it('refuses invalid and duplicate keys with 400', async () => {
    t = await createTestStore()
    const cases: [string, () => Promise<unknown>][] = [
      ['duplicate', () => write('mb1', [cmEntry('a'), cmEntry('a')], null)],
      ['slash in name', () => write('mb1', [cmEntry('a/b')], null)],
      ['bad mailbox', () => write('m#b', [cmEntry('a')], null)],
      ['empty version', () => write('mb1', [{ ...cmEntry('a'), version: '' }], null)],
    ]
    for (const [what, run] of cases)
      expect([what, (await apiError(run())).code]).toEqual([what, 400])
  })

  it('deletes a manifest (no-op when absent)', async () => {
    t = await createTestStore()
    await t.projections.deleteManifest('mb1')
    await write('mb1', [cmEntry('a'), secretEntry('s')], null)
    await t.projections.deleteManifest('mb1')
    expect(await t.projections.getManifest('mb1')).toBeUndefined()
    await t.projections.deleteManifest('mb1')
    const again = await write('mb1', [cmEntry('a')], null)
    expect(again.added).toBe(1)
  })
})
