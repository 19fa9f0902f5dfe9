/**
 * Watchable lists (lib/store/list-marks.ts): the list marks the counter's rv it read; a write that
 * had taken an rv at or below it but not landed while the list read the objects is handed to a watch
 * resuming from the list's version (the resume point reads the log from before it and keeps the
 * entries that landed after the list began), and the changes the list already showed are told
 * apart by their landing time; a mark never shows as a change; a version that is not a list's has
 * no resume point; without `watchable` a list answers with the counter.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { ChangeEvent, ResumePoint } from '../../../lib/store/types.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { cmKey, configMap, configMaps, faultHook, manualClock, putsInto } from './fixtures.ts'

let t: TestStore | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

const SETTLE = 1000

async function world() {
  const clock = manualClock()
  const faults = faultHook()
  t = await createTestStore({
    now: clock.now,
    settleMs: SETTLE,
    fault: faults.hook,
    logRetentionMs: 60_000,
  })
  const store = t
  /** What a watch from `rv` sends once everything has settled, as functions/api/watch.ts does. */
  const watchFrom = async (rv: number) => {
    clock.advance(SETTLE)
    const resume = await store.objects.resumePoint(configMaps('c1'), rv)
    const since = resume?.sinceRv ?? rv
    const { events } = await store.objects.changes({ ...configMaps('c1'), sinceRv: since })
    const shown = (e: ChangeEvent, r: ResumePoint | undefined) =>
      !r || e.rv > r.upTo || e.landedAt === undefined || e.landedAt >= r.landedAfter
    return events.filter((e) => shown(e, resume)).map((e) => `${e.type} ${e.object.metadata.name}`)
  }
  return { store, clock, faults, watchFrom }
}

describe('a watchable list', () => {
  /** Lists `c1` (watchable or not) while b's create (rv 2) has its rv but has not landed. */
  async function listWhileBInFlight(w: Awaited<ReturnType<typeof world>>, watchable: boolean) {
    await w.store.objects.create(cmKey('a'), configMap('a'))
    w.clock.advance(2 * SETTLE)
    const release = w.faults.hold('PutItem', putsInto('o#'))
    const b = w.store.objects.create(cmKey('b'), configMap('b'))
    while (w.faults.pending() > 0) await new Promise((r) => setTimeout(r, 5))
    const list = await w.store.objects.list({ ...configMaps('c1'), watchable })
    w.clock.advance(1)
    release()
    await b
    return list
  }

  it('hands a write in flight while it read to a watch from its version', async () => {
    const w = await world()
    const list = await listWhileBInFlight(w, true)
    expect(list.items.map((o) => o.metadata.name)).toEqual(['a'])
    expect(list.resourceVersion).toBe('2')
    expect(await w.watchFrom(2)).toEqual(['ADDED b'])
  })

  it('(a plain list, for contrast: a watch from its version misses that write)', async () => {
    const w = await world()
    const list = await listWhileBInFlight(w, false)
    expect(list.items.map((o) => o.metadata.name)).toEqual(['a'])
    expect(list.resourceVersion).toBe('2')
    expect(await w.watchFrom(2)).toEqual([])
  })

  it('does not hand out again what it showed, even changes made just before it', async () => {
    const { store, clock, watchFrom } = await world()
    await store.objects.create(cmKey('old'), configMap('old'))
    clock.advance(2 * SETTLE)
    const recent = await store.objects.create(cmKey('recent'), configMap('recent'))
    await store.objects.delete(cmKey('old'))
    clock.advance(1)
    const list = await store.objects.list({ ...configMaps('c1'), watchable: true })
    expect(list.items.map((o) => o.metadata.name)).toEqual(['recent'])
    await store.objects.update(cmKey('recent'), { ...recent, data: { v: '2' } }, '2')
    expect(await watchFrom(Number(list.resourceVersion))).toEqual(['MODIFIED recent'])
  })

  it('leaves a mark no reader of changes sees, and a resume point only at its own version', async () => {
    const { store, clock } = await world()
    await store.objects.create(cmKey('a'), configMap('a'))
    const list = await store.objects.list({ ...configMaps('c1'), watchable: true })
    clock.advance(SETTLE)
    const all = await store.objects.changes({ ...configMaps('c1'), sinceRv: 0 })
    expect(all.events.map((e) => `${e.type} ${e.object.metadata.name}@${e.rv}`)).toEqual([
      'ADDED a@1',
    ])
    const rv = Number(list.resourceVersion)
    expect(rv).toBe(1)
    expect(await store.objects.resumePoint(configMaps('c1'), rv)).toEqual({
      sinceRv: 0,
      upTo: rv,
      landedAfter: expect.any(Number),
    })
    expect(await store.objects.resumePoint(configMaps('c1'), 0)).toBeUndefined()
    expect(await store.objects.resumePoint(configMaps('c2'), rv)).toBeUndefined()
  })

  it('keeps its version on every page, and resumes from the watermark past a swept log', async () => {
    const { store, clock } = await world()
    for (const n of ['a', 'b', 'c']) await store.objects.create(cmKey(n), configMap(n))
    clock.advance(20 * 60_000)
    expect((await store.sweepChangeLog()).watermark).toBe(3)
    const first = await store.objects.list({ ...configMaps('c1'), watchable: true, limit: 2 })
    expect(first.resourceVersion).toBe('3')
    await store.objects.create(cmKey('d'), configMap('d'))
    const next = await store.objects.list({
      ...configMaps('c1'),
      watchable: true,
      limit: 10,
      continue: first.continue!,
    })
    expect(next.items.map((o) => o.metadata.name)).toEqual(['c', 'd'])
    expect(next.resourceVersion).toBe('3')
    const resume = await store.objects.resumePoint(configMaps('c1'), 3)
    expect(resume?.sinceRv).toBe(3)
  })

  it('takes no resourceVersion of its own, and a plain list marks nothing', async () => {
    const { store } = await world()
    await store.objects.create(cmKey('a'), configMap('a'))
    const plain = await store.objects.list(configMaps('c1'))
    expect(plain.resourceVersion).toBe('1')
    expect(await store.objects.resumePoint(configMaps('c1'), 1)).toBeUndefined()
    const list = await store.objects.list({ ...configMaps('c1'), watchable: true })
    expect(list.resourceVersion).toBe('1')
    expect(await store.objects.currentRv()).toBe(1)
  })

  it('at a version another list marked keeps the earlier start', async () => {
    const { store, clock } = await world()
    await store.objects.create(cmKey('a'), configMap('a'))
    await store.objects.list({ ...configMaps('c1'), watchable: true })
    const first = await store.objects.resumePoint(configMaps('c1'), 1)
    clock.advance(500)
    await store.objects.list({ ...configMaps('c1'), watchable: true })
    expect(await store.objects.resumePoint(configMaps('c1'), 1)).toEqual(first)
  })
})
