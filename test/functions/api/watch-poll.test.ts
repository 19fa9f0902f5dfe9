/**
 * One turn of a watch's poll loop (functions/api/watch-poll.ts) on a store that settles its
 * change log: a poll that stops at an entry not yet settled says when it settles, and the next
 * turn polls then without waiting on the change signal (which counts the settle time from when it
 * saw the counter move, up to an idle interval after the write). The store's clock is a manual
 * one; the loop's own waits are only bounded from above, so a busy machine cannot fail them.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { type Cursor, pollIfChanged, type WatchParams } from '../../../functions/api/watch-poll.ts'
import { BUILTIN_RESOURCES } from '../../../lib/kube/builtin-resources.ts'
import type { ObjectStore } from '../../../lib/store/types.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { cmKey, configMap, manualClock } from '../../lib/store/fixtures.ts'

let t: TestStore | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

const info = BUILTIN_RESOURCES.find((r) => r.group === '' && r.resource === 'configmaps')!
const params: WatchParams = {
  target: { space: { id: 'c1', path: 'root', phase: 'Ready' }, info, version: 'v1' },
  allSpaces: false,
  predicate: () => true,
  bookmarks: false,
}

/** The store, with a change signal that fails the test if it is asked. */
const unsignalled = (objects: ObjectStore): ObjectStore => ({
  ...objects,
  pollDelay: () => Promise.reject(new Error('the change signal was asked')),
})

describe('a watch turn on a settling store', () => {
  it('after stopping at an unsettled entry, polls when it settles, not when the signal says', async () => {
    const clock = manualClock()
    t = await createTestStore({ now: clock.now, settleMs: 1_000 })
    await t.objects.create(cmKey('a'), configMap('a'))
    clock.advance(300)
    const emitted: unknown[] = []
    const cur: Cursor = { low: 0, highest: 0, sent: new Map() }

    const first = await pollIfChanged({ objects: t.objects }, params, cur, (e) => emitted.push(e))
    expect(first).toMatchObject({ polled: true, events: 0 })
    expect(emitted).toEqual([])
    // The entry was issued 300 ms before the poll: it settles 700 ms after it.
    expect(first.waitMs).toBeLessThanOrEqual(700)
    expect(cur.settlesAt).toBeDefined()

    // Once that time has come the turn polls without asking the signal.
    cur.settlesAt = Date.now() - 1
    clock.advance(700)
    const objects = unsignalled(t.objects)
    const second = await pollIfChanged({ objects }, params, cur, (e) => emitted.push(e))
    expect(second).toMatchObject({ polled: true, events: 1 })
    expect(emitted).toMatchObject([{ type: 'ADDED', object: { metadata: { name: 'a' } } }])
    expect(cur.settlesAt).toBeUndefined()
  })

  it('waits for the settle time when the signal would wait longer, and the signal when shorter', async () => {
    const clock = manualClock()
    t = await createTestStore({ now: clock.now, settleMs: 1_000 })
    const base = t.objects
    const cur: Cursor = { low: 0, highest: 0, sent: new Map(), polledAt: clock.now() }
    const signal = (ms: number): ObjectStore => ({ ...base, pollDelay: () => Promise.resolve(ms) })

    cur.settlesAt = Date.now() + 5_000
    const settling = await pollIfChanged({ objects: signal(60_000) }, params, cur, () => {})
    expect(settling.polled).toBe(false)
    expect(settling.waitMs).toBeLessThanOrEqual(5_000)
    expect(settling.waitMs).toBeGreaterThan(0)

    const signalled = await pollIfChanged({ objects: signal(20) }, params, cur, () => {})
    expect(signalled).toEqual({ polled: false, events: 0, waitMs: 20 })

    // Nothing stopped the last poll: only the signal decides.
    cur.settlesAt = undefined
    const quiet = await pollIfChanged(
      { objects: signal(Number.POSITIVE_INFINITY) },
      params,
      cur,
      () => {}
    )
    expect(quiet).toEqual({ polled: false, events: 0, waitMs: Number.POSITIVE_INFINITY })
  })
})
