/**
 * The stored format and its migration (lib/store/format.ts, format-migrations.ts,
 * migrate-served-marks.ts): a new table is current; a table an earlier release wrote (no format
 * record) is taken to the current format in bounded, resumable, idempotent steps that give served
 * marks to the mailboxes whose edge reported, never replacing a mark a poll wrote; until then a
 * store answers `unknown` for what was served. Format 3 (shared manifests) changes nothing stored:
 * its migration records it, and a store shares only once the table is at it.
 */
import { DeleteItemCommand } from '@aws-sdk/client-dynamodb'
import { afterEach, describe, expect, it } from 'vitest'
import { createDynamoStore } from '../../../lib/store/dynamo-store.ts'
import { advanceFormat, FORMAT_CURRENT, readFormat } from '../../../lib/store/format.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { cmEntry, NOW } from './projection-fixtures.ts'

let t: TestStore | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

const ctxOf = (s: TestStore) => ({
  client: s.client,
  table: s.tableName,
  now: Date.now,
  retentionMs: 60_000,
  settleMs: 0,
})

/** Makes the table look as a release before formats left it: no format record. */
async function forgetFormat(s: TestStore): Promise<void> {
  await s.client.send(
    new DeleteItemCommand({
      TableName: s.tableName,
      Key: { pk: { S: 'meta' }, sk: { S: 'format' } },
    })
  )
}

/** Mailbox `id` with one ConfigMap copy; with `reported`, a copy state for it. */
async function mailbox(s: TestStore, id: string, reported: boolean): Promise<number> {
  const w = await s.projections.writeManifest(id, {
    desired: [cmEntry('a')],
    expectedVersion: null,
    now: NOW,
  })
  if (reported) {
    const [entry] = w.manifest.entries
    const key = { group: '', resource: 'configmaps', namespace: 'ns1', name: 'a' }
    const out = await s.projections.putCopyStates(id, [
      { key, state: { uid: entry!.uid, status: { ok: true } }, expectedRv: null },
    ])
    expect(out[0]?.outcome).toBe('written')
  }
  return w.manifest.version
}

describe('stored format', () => {
  it('records a new table at the current format: migrating it is one read', async () => {
    const counter = createRequestCounter()
    t = await createTestStore({ counter })
    expect(await readFormat(ctxOf(t))).toEqual({ format: FORMAT_CURRENT })
    counter.reset()
    expect(await t.migrate(() => true)).toMatchObject({ done: true, pages: 0, changed: 0 })
    expect(counter.snapshot()).toEqual({ GetItem: 1 })
    expect(await t.projections.getServed('never-polled')).toEqual({ kind: 'never' })
  })

  it('migrates a table an earlier release wrote in resumable steps, keeping marks polls wrote', async () => {
    t = await createTestStore()
    const v1 = await mailbox(t, 'mb1', true)
    await mailbox(t, 'mb2', false)
    await mailbox(t, 'mb3', true)
    await forgetFormat(t)
    // A poll of the new release answered mb3 at a version past its manifest's.
    await t.projections.markServed('mb3', 10_000)
    const fresh = () => createDynamoStore({ client: t!.client, tableName: t!.tableName })
    expect(await fresh().projections.getServed('mb1')).toEqual({ kind: 'unknown' })

    // Room for the page's own cost and one manifest: every step handles at most one.
    let steps = 0
    let last = await t.migrate(() => true, 0)
    expect(last).toMatchObject({ from: 1, format: 1, done: false, pages: 0 })
    while (!last.done) {
      let budget = 3 + 2
      const room = (cost: number) => {
        budget -= cost
        return budget >= 0
      }
      last = await t.migrate(room, 1)
      steps++
      expect(steps).toBeLessThan(20)
    }
    expect(steps).toBeGreaterThanOrEqual(3)
    expect(last).toMatchObject({ format: FORMAT_CURRENT, done: true })
    const after = fresh().projections
    expect(await after.getServed('mb1')).toEqual({ kind: 'at', version: v1 })
    expect(await after.getServed('mb2')).toEqual({ kind: 'never' })
    expect(await after.getServed('mb3')).toEqual({ kind: 'at', version: 10_000 })
    expect(await readFormat(ctxOf(t))).toEqual({ format: FORMAT_CURRENT })
  })

  it('shares nothing on a table at format 2 until it is migrated: the migration only records 3', async () => {
    t = await createTestStore()
    await advanceFormat(ctxOf(t), { format: FORMAT_CURRENT }, { format: 2 })
    const fresh = () => createDynamoStore({ client: t!.client, tableName: t!.tableName })
    const write = (store: ReturnType<typeof fresh>, mailbox: string) =>
      store.projections.writeManifest(mailbox, {
        desired: [cmEntry('a')],
        expectedVersion: null,
        now: NOW,
        share: 'k',
      })
    // A release that shares, on a table still at format 2: the mailbox's own manifest.
    expect((await write(fresh(), 'mb1')).manifest.shared).toBeUndefined()
    const step = await t.migrate(() => true)
    expect(step).toMatchObject({ from: 2, format: 3, migrations: ['shared-manifests'], done: true })
    expect(step.pages).toBe(1)
    expect(step.changed).toBe(0)
    expect((await write(fresh(), 'mb2')).manifest.shared?.membership.id).toMatch(/^sm\./)
  })

  it('is idempotent: two runners at once, and a run over a migrated table, change nothing more', async () => {
    t = await createTestStore()
    const v1 = await mailbox(t, 'mb1', true)
    await mailbox(t, 'mb2', false)
    await forgetFormat(t)
    const other = createDynamoStore({ client: t.client, tableName: t.tableName })
    const [a, b] = await Promise.all([t.migrate(() => true), other.migrate(() => true)])
    expect(a.done && b.done).toBe(true)
    expect(a.changed + b.changed).toBeGreaterThanOrEqual(1)
    expect(await t.migrate(() => true)).toMatchObject({ done: true, pages: 0, changed: 0 })
    expect(await other.projections.getServed('mb1')).toEqual({ kind: 'at', version: v1 })
    expect(await other.projections.getServed('mb2')).toEqual({ kind: 'never' })
  })

  it('deleting a manifest deletes its served mark', async () => {
    t = await createTestStore()
    await mailbox(t, 'mb1', false)
    await t.projections.markServed('mb1', 5)
    await t.projections.deleteManifest('mb1')
    expect(await t.projections.getServed('mb1')).toEqual({ kind: 'never' })
  })
})
