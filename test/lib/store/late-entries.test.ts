/**
 * Late change-log entries (lib/store/late-entries.ts): a write whose entry lands `settleMs` or more
 * after it asked for its rv, while a later write was already handed out, is announced again at a
 * fresh rv, so a reader past the later rv still sees it; a write that lands in time is announced
 * once; a change made meanwhile by someone else is never overwritten by the announcement. The slow
 * write is held at its change-log put by the fault hook, the reader is changes() with a cursor, as
 * a watch uses it.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { cmKey, configMap, configMaps, faultHook, manualClock, putsInto } from './fixtures.ts'
import { cmEntry, NOW } from './projection-fixtures.ts'

let t: TestStore | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

const SETTLE = 1000
const summary = (events: { type: string; object: { metadata: { name?: string } }; rv: number }[]) =>
  events.map((e) => `${e.type} ${e.object.metadata.name}@${e.rv}`)

async function lateWorld() {
  const clock = manualClock()
  const faults = faultHook()
  t = await createTestStore({ now: clock.now, settleMs: SETTLE, fault: faults.hook })
  const store = t
  /** Runs `write` with its next change-log put held; resolves once the put is waiting. */
  const held = async <T>(write: () => Promise<T>, op = 'PutItem') => {
    const release = faults.hold(op, op === 'PutItem' ? putsInto('l#') : undefined)
    const done = write()
    while (faults.pending() > 0) await new Promise((r) => setTimeout(r, 5))
    return { release, done }
  }
  /** What a reader at `since` gets once everything written so far has settled. */
  const after = async (since: number, cluster = 'c1') => {
    clock.advance(SETTLE)
    return (await store.objects.changes({ ...configMaps(cluster), sinceRv: since })).events
  }
  return { store, clock, held, after }
}

describe('a change-log entry that lands late', () => {
  it('of a create is announced again as MODIFIED at a fresh rv; the caller gets that version', async () => {
    const w = await lateWorld()
    const slow = await w.held(() => w.store.objects.create(cmKey('slow'), configMap('slow')))
    await w.store.objects.create(cmKey('fast'), configMap('fast'))
    expect(summary(await w.after(0))).toEqual(['ADDED fast@2'])
    // The reader's cursor is now 2: the slow create's entry (rv 1) will never be read by it.
    slow.release()
    const created = await slow.done
    expect(created.metadata.resourceVersion).toBe('3')
    expect(summary(await w.after(2))).toEqual(['MODIFIED slow@3'])
    const stored = await w.store.objects.get(cmKey('slow'))
    expect(stored).toEqual(created)
    expect(stored?.data).toEqual({})
  })

  it('of a write that landed in time is not announced again', async () => {
    const w = await lateWorld()
    const slow = await w.held(() => w.store.objects.create(cmKey('slow'), configMap('slow')))
    await w.store.objects.create(cmKey('fast'), configMap('fast'))
    w.clock.advance(SETTLE - 1)
    slow.release()
    expect((await slow.done).metadata.resourceVersion).toBe('1')
    expect(summary(await w.after(0))).toEqual(['ADDED slow@1', 'ADDED fast@2'])
  })

  it('of an update never overwrites a change someone made meanwhile', async () => {
    const w = await lateWorld()
    const a = await w.store.objects.create(cmKey('a'), configMap('a', 'default', { v: '1' }))
    const mine = await w.held(() =>
      w.store.objects.update(cmKey('a'), { ...a, data: { v: 'mine' } }, '1')
    )
    const theirs = await w.store.objects.update(cmKey('a'), { ...a, data: { v: 'theirs' } }, '2')
    expect(summary(await w.after(1))).toEqual(['MODIFIED a@3'])
    mine.release()
    // The update stands (rv 2); announcing it again would need rv 2 to still be stored.
    expect((await mine.done).metadata.resourceVersion).toBe('2')
    expect(await w.store.objects.get(cmKey('a'))).toEqual(theirs)
    expect(summary(await w.after(3))).toEqual([])
  })

  it('of a delete is logged again as DELETED at a fresh rv, which the caller gets', async () => {
    const w = await lateWorld()
    await w.store.objects.create(cmKey('a'), configMap('a'))
    const del = await w.held(() => w.store.objects.delete(cmKey('a')))
    await w.store.objects.create(cmKey('fast'), configMap('fast'))
    expect(summary(await w.after(1))).toEqual(['ADDED fast@3'])
    del.release()
    expect((await del.done).metadata.resourceVersion).toBe('4')
    expect(summary(await w.after(3))).toEqual(['DELETED a@4'])
  })

  it("of a manifest write logs the write's change list again at a fresh rv", async () => {
    const w = await lateWorld()
    const write = await w.held(
      () =>
        w.store.projections.writeManifest('mb1', {
          desired: [cmEntry('a')],
          expectedVersion: null,
          now: NOW,
        }),
      'BatchWriteItem'
    )
    await w.store.objects.create(cmKey('fast', 'ns1', 'mb1'), configMap('fast', 'ns1'))
    expect(summary(await w.after(0, 'mb1'))).toEqual(['ADDED fast@2'])
    write.release()
    const written = await write.done
    expect(written.manifest.version).toBe(1)
    const again = await w.after(2, 'mb1')
    expect(summary(again)).toEqual(['ADDED a@3'])
    // The copy is the one the manifest holds, at its own version.
    expect(again[0]?.object.metadata.resourceVersion).toBe('1')
    expect(again[0]?.object.metadata.uid).toBe(written.manifest.entries[0]?.uid)
  })

  it('of a copy-state write logs the copies with their new state again at a fresh rv', async () => {
    const w = await lateWorld()
    const { manifest } = await w.store.projections.writeManifest('mb1', {
      desired: [cmEntry('a')],
      expectedVersion: null,
      now: NOW,
    })
    const uid = manifest.entries[0]!.uid
    const key = { group: '', resource: 'configmaps', namespace: 'ns1', name: 'a' }
    const write = await w.held(
      () =>
        w.store.projections.putCopyStates('mb1', [
          { key, state: { uid, status: { phase: 'Ready' } }, expectedRv: null },
        ]),
      'BatchWriteItem'
    )
    await w.store.objects.create(cmKey('fast', 'ns1', 'mb1'), configMap('fast', 'ns1'))
    expect(summary(await w.after(1, 'mb1'))).toEqual(['ADDED fast@3'])
    write.release()
    expect((await write.done).map((r) => r.outcome)).toEqual(['written'])
    const again = await w.after(3, 'mb1')
    expect(summary(again)).toEqual(['MODIFIED a@4'])
    expect(again[0]?.object.status).toEqual({ phase: 'Ready' })
  })
})
