/**
 * The change-log sweep in pages: over a table of 2,500 expired log entries (more than two Scan
 * pages of 1,000), calls that each read one page, or stop when `room` says so, hand back a cursor
 * that the next call resumes from, and together delete every entry and raise the watermark to the
 * highest, exactly as one unbounded call would.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { SweepCursor } from '../../../lib/store/sweep.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { EXPIRED_ENTRIES, writeExpiredEntries } from './expired-entries.ts'
import { cmKey, configMap, manualClock } from './fixtures.ts'

let t: TestStore | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

describe('sweepChangeLog in pages', () => {
  it('covers a table bigger than one page over several calls, resuming at the cursor', async () => {
    t = await createTestStore()
    await writeExpiredEntries(t)
    let cursor: SweepCursor | undefined
    let calls = 0
    let deleted = 0
    let complete = false
    do {
      const r = await t.sweeps.changeLog({ maxPages: 1, ...(cursor ? { cursor } : {}) })
      calls++
      deleted += r.deleted
      cursor = r.cursor
      complete = r.complete
      expect(complete).toBe(cursor === undefined)
    } while (cursor && calls < 10)
    expect(complete).toBe(true)
    expect(calls).toBeGreaterThanOrEqual(3)
    expect(deleted).toBe(EXPIRED_ENTRIES)
    expect((await t.sweeps.changeLog({})).watermark).toBe(EXPIRED_ENTRIES)
  })

  it('stops where room runs out and goes on from there', async () => {
    t = await createTestStore()
    await writeExpiredEntries(t)
    let pages = 0
    const onePage = () => pages++ < 1
    const first = await t.sweeps.changeLog({ room: onePage })
    expect(first.complete).toBe(false)
    expect(first.cursor).toBeDefined()
    expect(first.deleted).toBeGreaterThan(0)
    expect(first.deleted).toBeLessThan(EXPIRED_ENTRIES)
    const none = await t.sweeps.changeLog({ cursor: first.cursor!, room: () => false })
    expect(none).toMatchObject({ deleted: 0, complete: false, cursor: first.cursor })
    const rest = await t.sweeps.changeLog({ cursor: first.cursor! })
    expect(rest.complete).toBe(true)
    expect(first.deleted + rest.deleted).toBe(EXPIRED_ENTRIES)
  })

  it('cuts a page short before a blob when room runs out, and checks it on the next call', async () => {
    const clock = manualClock()
    t = await createTestStore({ now: clock.now, logRetentionMs: 60_000 })
    // Random text repeated farther apart than gzip's window: stored as a blob of chunks.
    const big = () => {
      const bytes = crypto.getRandomValues(new Uint8Array(60_000))
      const text = Array.from({ length: 8 }, () => btoa(String.fromCharCode(...bytes))).join('')
      return configMap('big', 'default', { blob: text.slice(0, 600_000) })
    }
    const v1 = await t.objects.create(cmKey('big'), big())
    await t.objects.update(cmKey('big'), big(), v1.metadata.resourceVersion!)
    clock.advance(60 * 60_000)
    let asked = 0
    // Room for the page, none for the first blob check.
    const cut = await t.sweeps.changeLog({ room: () => asked++ < 1 })
    expect(cut).toMatchObject({ blobsDeleted: 0, complete: false })
    const rest = await t.sweeps.changeLog({ ...(cut.cursor ? { cursor: cut.cursor } : {}) })
    expect(rest).toMatchObject({ blobsDeleted: 1, complete: true })
    expect(cut.deleted + rest.deleted).toBe(2)
  })
})
