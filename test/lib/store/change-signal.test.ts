/**
 * The change signal (lib/store/change-signal.ts) through the store's changedSince(), on dynalite
 * with a manual clock: "nothing new" only once a poll began the settle window (at least the
 * re-read window) after the counter's value was first seen; any write, including a late entry's
 * announcement at a fresh rv, makes it "changed" again; the counter is read at most once per
 * SIGNAL_MAX_AGE_MS however many pollers ask; a failed read answers "changed".
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

describe('changedSince', () => {
  it('answers "nothing new" only for a poll begun a settle window after the counter last moved', async () => {
    const SETTLE = 1000
    const w = await world(SETTLE)
    await w.store.objects.create(cmKey('a'), configMap('a'))
    const first = await w.poll()
    // The counter's value is first seen now; a poll begun before that plus the window may miss
    // an entry still landing.
    expect(await w.store.objects.changedSince(first.polledAt)).toBe(true)
    w.clock.advance(Math.max(SETTLE, REREAD_WINDOW_MS))
    const later = await w.poll()
    expect(later.events.map((e) => e.object.metadata.name)).toEqual(['a'])
    w.clock.advance(SIGNAL_MAX_AGE_MS + 1)
    expect(await w.store.objects.changedSince(later.polledAt)).toBe(false)
    await w.store.objects.create(cmKey('b'), configMap('b'))
    w.clock.advance(SIGNAL_MAX_AGE_MS + 1)
    expect(await w.store.objects.changedSince(later.polledAt)).toBe(true)
  })

  it('uses the re-read window on a store that does not settle', async () => {
    const w = await world(0)
    const p = await w.poll()
    expect(await w.store.objects.changedSince(p.polledAt)).toBe(true)
    w.clock.advance(REREAD_WINDOW_MS - 1)
    expect(await w.store.objects.changedSince((await w.poll()).polledAt)).toBe(true)
    w.clock.advance(1)
    expect(await w.store.objects.changedSince((await w.poll()).polledAt)).toBe(false)
  })

  it('turns "changed" when a late entry is announced again, so no poller misses it', async () => {
    const SETTLE = 1000
    const w = await world(SETTLE)
    const release = w.faults.hold('PutItem', putsInto('l#'))
    const slow = w.store.objects.create(cmKey('slow'), configMap('slow'))
    while (w.faults.pending() > 0) await new Promise((r) => setTimeout(r, 5))
    // The slow write holds rv 1; its entry has not landed. A poll well past the window sees
    // nothing, and the counter reads 1 all along: "nothing new".
    w.clock.advance(REREAD_WINDOW_MS + SIGNAL_MAX_AGE_MS)
    await w.store.objects.changedSince(0)
    w.clock.advance(REREAD_WINDOW_MS + SIGNAL_MAX_AGE_MS)
    const quiet = await w.poll()
    expect(quiet.events).toEqual([])
    expect(await w.store.objects.changedSince(quiet.polledAt)).toBe(false)
    // It lands late and is announced again at rv 2: the counter moved.
    release()
    await slow
    w.clock.advance(SIGNAL_MAX_AGE_MS + 1)
    expect(await w.store.objects.changedSince(quiet.polledAt)).toBe(true)
    w.clock.advance(REREAD_WINDOW_MS)
    const seen = await w.poll()
    expect(seen.events.map((e) => `${e.type} ${e.object.metadata.name}`)).toContain('MODIFIED slow')
  })

  it('reads the counter once per max age, however many pollers ask', async () => {
    const w = await world(0)
    const p = await w.poll()
    w.clock.advance(REREAD_WINDOW_MS)
    const before = w.counterReads()
    const answers: boolean[] = []
    for (let i = 0; i < 20; i++) answers.push(await w.store.objects.changedSince(p.polledAt))
    expect(w.counterReads() - before).toBe(1)
    w.clock.advance(SIGNAL_MAX_AGE_MS + 1)
    await Promise.all(Array.from({ length: 20 }, () => w.store.objects.changedSince(p.polledAt)))
    expect(w.counterReads() - before).toBe(2)
    expect(answers.every((a) => a === answers[0])).toBe(true)
  })

  it('answers "changed" when the counter cannot be read', async () => {
    const w = await world(0)
    await w.store.objects.changedSince(0)
    w.clock.advance(REREAD_WINDOW_MS)
    const q = await w.poll()
    w.clock.advance(SIGNAL_MAX_AGE_MS + 1)
    expect(await w.store.objects.changedSince(q.polledAt)).toBe(false)
    w.clock.advance(SIGNAL_MAX_AGE_MS + 1)
    w.faults.fail('GetItem', 'before')
    expect(await w.store.objects.changedSince(q.polledAt)).toBe(true)
  })
})
