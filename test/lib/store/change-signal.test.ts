/**
 * The change signal (lib/store/change-signal.ts) through the store's pollDelay(), on dynalite with
 * a manual clock: "poll now" when the counter moved after the last poll began; "poll when it has
 * settled" (the settle window, or the re-read window on a store without one, after its value was
 * first seen) when the last poll began before that; "nothing until the counter moves" (Infinity)
 * after. Any write, including a late entry's announcement at a fresh rv, moves it; the counter is
 * read at most once per SIGNAL_MAX_AGE_MS however many pollers ask; a failed read answers "poll
 * now".
 */
import { afterEach, describe, expect, it } from 'vitest'
import { REREAD_WINDOW_MS, SIGNAL_MAX_AGE_MS } from '../../../lib/store/change-signal.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { cmKey, configMap, configMaps, faultHook, manualClock, putsInto } from './fixtures.ts'

let t: TestStore | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

async function world(settleMs: number) {
  const clock = manualClock()
  const counter = createRequestCounter()
  const faults = faultHook()
  t = await createTestStore({ now: clock.now, settleMs, counter, fault: faults.hook })
  const store = t
  const poll = (since = 0) => store.objects.changes({ ...configMaps('c1'), sinceRv: since })
  const counterReads = () => counter.snapshot().GetItem ?? 0
  return { store, clock, counter, faults, poll, counterReads }
}

describe('pollDelay', () => {
  it('says when a poll can find more: now, once settled, or not until the counter moves', async () => {
    const SETTLE = 1000
    const W = SETTLE
    const w = await world(SETTLE)
    await w.store.objects.create(cmKey('a'), configMap('a'))
    const first = await w.poll()
    expect(first.events).toEqual([])
    // The counter's value is first seen now, as the poll began: it is settled W from now.
    expect(await w.store.objects.pollDelay(first.polledAt)).toBe(W)
    w.clock.advance(W)
    const later = await w.poll()
    expect(later.events.map((e) => e.object.metadata.name)).toEqual(['a'])
    w.clock.advance(SIGNAL_MAX_AGE_MS + 1)
    expect(await w.store.objects.pollDelay(later.polledAt)).toBe(Number.POSITIVE_INFINITY)
    await w.store.objects.create(cmKey('b'), configMap('b'))
    w.clock.advance(SIGNAL_MAX_AGE_MS + 1)
    expect(await w.store.objects.pollDelay(later.polledAt)).toBe(0)
  })

  it('uses the re-read window on a store that does not settle', async () => {
    const w = await world(0)
    const p = await w.poll()
    expect(await w.store.objects.pollDelay(p.polledAt)).toBe(REREAD_WINDOW_MS)
    w.clock.advance(REREAD_WINDOW_MS - 1)
    expect(await w.store.objects.pollDelay((await w.poll()).polledAt)).toBe(1)
    w.clock.advance(1)
    const settled = await w.store.objects.pollDelay((await w.poll()).polledAt)
    expect(settled).toBe(Number.POSITIVE_INFINITY)
  })

  it('says "poll now" when a late entry is announced again, so no poller misses it', async () => {
    const w = await world(1000)
    const release = w.faults.hold('PutItem', putsInto('l#'))
    const slow = w.store.objects.create(cmKey('slow'), configMap('slow'))
    while (w.faults.pending() > 0) await new Promise((r) => setTimeout(r, 5))
    // The slow write holds rv 1; its entry has not landed. A poll well past the window sees
    // nothing, and the counter reads 1 all along: nothing until the counter moves.
    await w.store.objects.pollDelay(0)
    w.clock.advance(REREAD_WINDOW_MS + SIGNAL_MAX_AGE_MS)
    const quiet = await w.poll()
    expect(quiet.events).toEqual([])
    expect(await w.store.objects.pollDelay(quiet.polledAt)).toBe(Number.POSITIVE_INFINITY)
    // It lands late and is announced again at rv 2: the counter moved.
    release()
    await slow
    w.clock.advance(SIGNAL_MAX_AGE_MS + 1)
    expect(await w.store.objects.pollDelay(quiet.polledAt)).toBe(0)
    w.clock.advance(REREAD_WINDOW_MS)
    const seen = await w.poll()
    expect(seen.events.map((e) => `${e.type} ${e.object.metadata.name}`)).toContain('MODIFIED slow')
  })

  it('reads the counter once per max age, however many pollers ask', async () => {
    const w = await world(0)
    const p = await w.poll()
    w.clock.advance(REREAD_WINDOW_MS)
    const before = w.counterReads()
    const answers: number[] = []
    for (let i = 0; i < 20; i++) answers.push(await w.store.objects.pollDelay(p.polledAt))
    expect(w.counterReads() - before).toBe(1)
    w.clock.advance(SIGNAL_MAX_AGE_MS + 1)
    await Promise.all(Array.from({ length: 20 }, () => w.store.objects.pollDelay(p.polledAt)))
    expect(w.counterReads() - before).toBe(2)
    expect(answers.every((a) => a === answers[0])).toBe(true)
  })

  it('says "poll now" when the counter cannot be read', async () => {
    const w = await world(0)
    await w.store.objects.pollDelay(0)
    w.clock.advance(REREAD_WINDOW_MS)
    const q = await w.poll()
    w.clock.advance(SIGNAL_MAX_AGE_MS + 1)
    expect(await w.store.objects.pollDelay(q.polledAt)).toBe(Number.POSITIVE_INFINITY)
    w.clock.advance(SIGNAL_MAX_AGE_MS + 1)
    w.faults.fail('GetItem', 'before')
    expect(await w.store.objects.pollDelay(q.polledAt)).toBe(0)
  })
})
