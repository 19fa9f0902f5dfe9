import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { createLogger, silentLogger } from '../../../lib/log.ts'
import { createBatcher } from '../../../lib/relay/batcher.ts'
import { type CursorStore, createKvCursorStore } from '../../../lib/relay/cursor.ts'
import { createResourcePipeline } from '../../../lib/relay/pipeline.ts'
import { createSliceIndex } from '../../../lib/relay/slice-index.ts'
import { type RawWatchEvent, runWatchLoop } from '../../../lib/relay/watch-loop.ts'
import { targetId, type WatchTarget } from '../../../lib/relay/watch-targets.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { waitUntil } from '../../helpers/wait-until.ts'
import { createFakeClock } from './fake-clock.ts'

const ep = (name: string, rv: string): KubeObject => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'EdgePlacement',
  metadata: { name, resourceVersion: rv, annotations: { 'kcp.io/cluster': 'ws1' } },
})

const PLACEMENTS: WatchTarget = {
  group: 'edge.kcp.io',
  version: 'v1alpha1',
  resource: 'edgeplacements',
}
const ID = targetId(PLACEMENTS)

/** Waits (in real time, as the store is real) until `ready()` holds; fails if it never does. */
async function until(ready: () => boolean): Promise<void> {
  await waitUntil(ready, { everyMs: 10 })
  expect(ready()).toBe(true)
}

/** A batcher on a fake clock (flushes after 100 ms, retries after 1 s) sending keys to `flush`. */
function testBatcher(
  clock: ReturnType<typeof createFakeClock>,
  flush: (keys: string[]) => void | Promise<void>
) {
  return createBatcher({
    delayMs: 100,
    maxKeys: 50,
    setTimer: clock.setTimer,
    random: () => 0,
    backoff: { baseMs: 1000, maxMs: 1000 },
    flush: async (_step, keys) => flush(keys),
  })
}

/** A relay for edgeplacements whose watch yields `events` once per connection and then idles. */
function relay(cursors: CursorStore, events: RawWatchEvent[], failFlushes: number) {
  const clock = createFakeClock()
  const controller = new AbortController()
  const flushed: string[][] = []
  const opened: string[] = []
  let failures = failFlushes
  const batcher = testBatcher(clock, (keys) => {
    if (failures > 0) {
      failures -= 1
      throw new Error('hub down')
    }
    flushed.push(keys)
  })
  const pipeline = createResourcePipeline(PLACEMENTS, {
    batcher,
    cursors,
    eventKeys: {
      espwSpaceId: 'espw',
      listEdgePlacements: async () => [],
      index: createSliceIndex(),
    },
  })
  const loop = runWatchLoop({
    resource: 'edgeplacements',
    ...pipeline,
    list: async () => ({ items: [], resourceVersion: '10' }),
    openWatch(rv, signal) {
      opened.push(rv)
      return (async function* () {
        for (const e of events) yield e
        await new Promise((r) => signal.addEventListener('abort', r))
      })()
    },
    log: silentLogger,
    sleep: async () => {},
    random: () => 0,
    signal: controller.signal,
  })
  const stop = async () => {
    controller.abort()
    await loop
    await batcher.drain()
    await pipeline.tracker.settled()
  }
  /** Until both events were queued on the batcher (its delay timer is running). */
  const queued = () => until(() => batcher.pending().where === 2)
  return { clock, flushed, opened, stop, queued, tracker: pipeline.tracker }
}

describe('relay pipeline (batcher + cursor + watch loop)', () => {
  let t: TestStore
  let t2: TestStore
  beforeAll(async () => {
    t = await createTestStore()
    t2 = await createTestStore()
  })
  afterAll(async () => {
    await t.close()
    await t2.close()
  })
  const events = [
    { type: 'ADDED', object: ep('p1', '11') },
    { type: 'MODIFIED', object: ep('p2', '12') },
  ]

  it('saves the cursor only after the flush carrying its events succeeded', async () => {
    const cursors = createKvCursorStore(t.kv)
    const r = relay(cursors, events, 1)
    await r.queued()
    await r.clock.advance(100)
    await r.tracker.saving()
    expect(r.flushed).toEqual([])
    expect(await cursors.load(ID)).toBe('10')
    await r.clock.advance(1000)
    await r.tracker.saving()
    expect(r.flushed).toEqual([['ws1/p1', 'ws1/p2']])
    expect(await cursors.load(ID)).toBe('12')
    await r.stop()
  })

  it('re-delivers after a crash with undelivered keys, resuming from the saved cursor', async () => {
    const cursors = createKvCursorStore(t2.kv)
    const first = relay(cursors, events, 99)
    await first.queued()
    await first.stop()
    expect(first.flushed).toEqual([])
    expect(await cursors.load(ID)).toBe('10')

    const second = relay(cursors, events, 0)
    await second.queued()
    await second.clock.advance(100)
    await second.stop()
    expect(second.opened).toEqual(['10'])
    expect(second.flushed).toEqual([['ws1/p1', 'ws1/p2']])
    expect(await cursors.load(ID)).toBe('12')
  })
})

describe('relay pipeline debug lines', () => {
  it('names each event that woke keys, with the keys per step, at debug level only', async () => {
    const lines: string[] = []
    const log = (level: 'debug' | 'info') =>
      createLogger({ level, sink: (line) => void lines.push(line) })
    const clock = createFakeClock()
    const batcher = testBatcher(clock, () => {})
    const t = await createTestStore()
    try {
      for (const level of ['info', 'debug'] as const) {
        const pipeline = createResourcePipeline(PLACEMENTS, {
          batcher,
          cursors: createKvCursorStore(t.kv),
          eventKeys: {
            espwSpaceId: 'espw',
            listEdgePlacements: async () => [],
            index: createSliceIndex(),
          },
          log: log(level),
        })
        await pipeline.onEvent({ type: 'MODIFIED', object: ep('p1', '42') })
      }
      const events = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'relay event')
      expect(events).toEqual([
        expect.objectContaining({
          level: 'debug',
          target: ID,
          type: 'MODIFIED',
          space: 'ws1',
          name: 'p1',
          resourceVersion: '42',
          keys: { where: 1 },
        }),
      ])
    } finally {
      await clock.advance(100)
      await batcher.drain()
      await t.close()
    }
  })
})
