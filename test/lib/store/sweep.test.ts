import { afterEach, describe, expect, it } from 'vitest'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { apiError, cmKey, configMap, configMaps, manualClock } from './fixtures.ts'

let t: TestStore | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

const MINUTE = 60_000

function bigConfigMap(name: string): ReturnType<typeof configMap> {
  const bytes = crypto.getRandomValues(new Uint8Array(60_000))
  const text = Array.from({ length: 8 }, () => btoa(String.fromCharCode(...bytes))).join('')
  return configMap(name, 'default', { blob: text.slice(0, 600_000) })
}

describe('sweepChangeLog', () => {
  it('deletes entries past retention, raises the watermark, and answers 410 for older rvs', async () => {
    const clock = manualClock()
    t = await createTestStore({ now: clock.now, logRetentionMs: 10 * MINUTE })
    await t.objects.create(cmKey('a'), configMap('a'))
    await t.objects.create(cmKey('b', 'default', 'c2'), configMap('b'))
    clock.advance(6 * MINUTE)
    await t.objects.create(cmKey('c'), configMap('c'))
    clock.advance(6 * MINUTE)

    const result = await t.sweepChangeLog()
    expect(result).toEqual({ deleted: 2, blobsDeleted: 0, watermark: 2, complete: true })

    const err = await apiError(t.objects.changes({ ...configMaps('c1'), sinceRv: 1 }))
    expect(err.code).toBe(410)
    expect(err.reason).toBe('Expired')
    expect(err.message).toBe('too old resource version: 1 (2)')
    const ok = await t.objects.changes({ ...configMaps('c1'), sinceRv: 2 })
    expect(ok.events.map((e) => e.object.metadata.name)).toEqual(['c'])
    expect((await apiError(t.objects.changes({ ...configMaps('*'), sinceRv: 0 }))).code).toBe(410)

    // Objects themselves are untouched.
    expect((await t.objects.list(configMaps('*'))).items).toHaveLength(3)
    expect(await t.sweepChangeLog()).toEqual({
      deleted: 0,
      blobsDeleted: 0,
      watermark: 2,
      complete: true,
    })
  })

  it('reads no watermark for a read continuing a recent one of its cursor, and does for any other', async () => {
    const clock = manualClock()
    const counter = createRequestCounter()
    t = await createTestStore({ now: clock.now, logRetentionMs: 10 * MINUTE, counter })
    await t.objects.create(cmKey('a'), configMap('a'))
    const first = await t.objects.changes({ ...configMaps('c1'), sinceRv: 0 })
    clock.advance(4 * MINUTE)
    await t.objects.create(cmKey('b'), configMap('b'))
    counter.reset()
    const next = await t.objects.changes({
      ...configMaps('c1'),
      sinceRv: 1,
      previousPollAt: first.polledAt,
    })
    expect(next.events.map((e) => e.object.metadata.name)).toEqual(['b'])
    expect(counter.snapshot()).toEqual({ Query: 1 })
    // A cursor whose last read is half the retention old, or from the future, is checked.
    clock.advance(7 * MINUTE)
    expect((await t.sweepChangeLog()).watermark).toBe(1)
    for (const previousPollAt of [first.polledAt, clock.now() + 1]) {
      const err = await apiError(
        t.objects.changes({ ...configMaps('c1'), sinceRv: 0, previousPollAt })
      )
      expect(err.reason).toBe('Expired')
    }
  })

  it('takes retention and time from its options', async () => {
    const clock = manualClock()
    t = await createTestStore({ now: clock.now })
    await t.objects.create(cmKey('a'), configMap('a'))
    expect(
      (await t.sweepChangeLog({ retentionMs: MINUTE, now: clock.now() + MINUTE - 1 })).deleted
    ).toBe(0)
    expect(
      (await t.sweepChangeLog({ retentionMs: MINUTE, now: clock.now() + MINUTE + 1 })).deleted
    ).toBe(1)
    expect((await apiError(t.sweepChangeLog({ retentionMs: -1 }))).code).toBe(400)
  })

  it('expires a continue token older than the watermark', async () => {
    const clock = manualClock()
    t = await createTestStore({ now: clock.now, logRetentionMs: MINUTE })
    for (const n of ['a', 'b', 'c']) await t.objects.create(cmKey(n), configMap(n))
    const page = await t.objects.list({ ...configMaps('c1'), limit: 1 })
    const fresh = await t.objects.list({ ...configMaps('c1'), limit: 1, continue: page.continue! })
    expect(fresh.items.map((o) => o.metadata.name)).toEqual(['b'])
    await t.objects.create(cmKey('d'), configMap('d'))
    clock.advance(2 * MINUTE)
    expect((await t.sweepChangeLog()).watermark).toBe(4)
    const err = await apiError(
      t.objects.list({ ...configMaps('c1'), limit: 1, continue: page.continue! })
    )
    expect(err.code).toBe(410)
    expect(err.reason).toBe('Expired')
    // A new list works and its token is current.
    const again = await t.objects.list({ ...configMaps('c1'), limit: 1 })
    const next = await t.objects.list({ ...configMaps('c1'), limit: 1, continue: again.continue! })
    expect(next.items.map((o) => o.metadata.name)).toEqual(['b'])
  })

  it('deletes blobs once no head or retained log entry references them', async () => {
    const clock = manualClock()
    t = await createTestStore({ now: clock.now, logRetentionMs: MINUTE })
    const v1 = await t.objects.create(cmKey('big'), bigConfigMap('big'))
    const v2 = await t.objects.update(
      cmKey('big'),
      bigConfigMap('big'),
      v1.metadata.resourceVersion!
    )
    // Within retention the old blob is still referenced by its log entry.
    clock.advance(30 * MINUTE)
    expect((await t.sweepChangeLog({ retentionMs: 60 * MINUTE })).blobsDeleted).toBe(0)
    const first = await t.sweepChangeLog()
    expect(first).toMatchObject({ deleted: 2, blobsDeleted: 1 })
    expect(await t.objects.get(cmKey('big'))).toEqual(v2)

    const gone = await t.objects.delete(cmKey('big'))
    clock.advance(20 * MINUTE)
    // The DELETED entry is within retention (its rv was issued just now) and keeps the blob alive.
    const { events } = await t.objects.changes({ ...configMaps('c1'), sinceRv: first.watermark })
    expect(events.map((e) => e.type)).toEqual(['DELETED'])
    expect(events[0]?.object).toEqual(gone)
    expect((await t.sweepChangeLog({ retentionMs: 60 * MINUTE })).blobsDeleted).toBe(0)
    expect(await t.sweepChangeLog()).toMatchObject({ deleted: 1, blobsDeleted: 1 })
  })
})
