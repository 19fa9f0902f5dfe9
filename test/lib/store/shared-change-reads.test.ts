/**
 * Shared change-log reads (lib/store/shared-change-reads.ts), over a counting reader and a manual
 * clock: a watch past its first poll takes a read of its collection that began after its own
 * previous one and at most the window ago, filtered to its cursor; never a read of another
 * collection, one behind its cursor, its own previous answer, a stale one, or one that skipped the
 * watermark check it needs; point reads (a limit), mailbox feeds and first polls always read; a
 * failed read is not remembered; only the last window's reads are held.
 */
import { describe, expect, it } from 'vitest'
import { shareChangeReads } from '../../../lib/store/shared-change-reads.ts'
import type { ChangeEvent, ChangesOptions, ChangesResult } from '../../../lib/store/types.ts'

const RETENTION = 60_000
const cm = (rv: number): ChangeEvent => ({
  type: 'MODIFIED',
  object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${rv}` } },
  rv,
  cluster: 'root',
  namespace: 'ns',
})
const coll = { cluster: 'root', group: '', resource: 'configmaps', namespace: 'ns' }

function world(windowMs = 100, maxCollections?: number) {
  let t = 1_000_000
  const log = [1, 2, 3, 4, 5].map(cm)
  const reads: ChangesOptions[] = []
  let fail = false
  const read = async (opts: ChangesOptions): Promise<ChangesResult> => {
    reads.push(opts)
    if (fail) throw new Error('store down')
    return { events: log.filter((e) => e.rv > opts.sinceRv), more: false, polledAt: t }
  }
  const changes = shareChangeReads(read, {
    now: () => t,
    windowMs,
    retentionMs: RETENTION,
    ...(maxCollections ? { maxCollections } : {}),
  })
  return {
    changes,
    reads,
    log,
    tick: (ms: number) => {
      t += ms
    },
    now: () => t,
    failing: (f: boolean) => {
      fail = f
    },
  }
}
const rvs = (r: ChangesResult) => r.events.map((e) => e.rv)

describe('shared change-log reads', () => {
  it("answers a later watch of the collection from a recent read, at that read's time", async () => {
    const w = world()
    const before = w.now() - 200
    const first = await w.changes({ ...coll, sinceRv: 1, previousPollAt: before })
    w.tick(40)
    const second = await w.changes({ ...coll, sinceRv: 3, previousPollAt: before })
    expect(w.reads).toHaveLength(1)
    expect(rvs(second)).toEqual([4, 5])
    expect(second.polledAt).toBe(first.polledAt)
  })

  it('reads anew for a first poll, a point read, a mailbox feed or another collection', async () => {
    const w = world()
    const prev = w.now() - 200
    await w.changes({ ...coll, sinceRv: 0, previousPollAt: prev })
    await w.changes({ ...coll, sinceRv: 0 })
    await w.changes({ ...coll, sinceRv: 0, limit: 1, previousPollAt: prev })
    await w.changes({
      ...coll,
      sinceRv: 0,
      previousPollAt: prev,
      shared: { id: 's', marks: new Map() } as never,
    })
    await w.changes({ ...coll, namespace: 'other', sinceRv: 0, previousPollAt: prev })
    expect(w.reads).toHaveLength(5)
  })

  it('never answers from behind the cursor, past the window, or with the same answer again', async () => {
    const w = world()
    const prev = w.now() - 200
    await w.changes({ ...coll, sinceRv: 3, previousPollAt: prev })
    await w.changes({ ...coll, sinceRv: 1, previousPollAt: prev })
    expect(w.reads).toHaveLength(2) // the shared read began past rv 1's entries
    const own = await w.changes({ ...coll, sinceRv: 1, previousPollAt: prev })
    expect(w.reads).toHaveLength(2)
    // The same cursor again right after: its previous answer is not handed out twice.
    await w.changes({ ...coll, sinceRv: 1, previousPollAt: own.polledAt })
    expect(w.reads).toHaveLength(3)
    w.tick(101)
    await w.changes({ ...coll, sinceRv: 4, previousPollAt: prev })
    expect(w.reads).toHaveLength(4)
  })

  it('a read whose previous poll is too old for the watermark skip needs a checked read', async () => {
    const w = world()
    // This read continued a recent one: it skipped the watermark check.
    await w.changes({ ...coll, sinceRv: 2, previousPollAt: w.now() - 1000 })
    w.tick(10)
    await w.changes({ ...coll, sinceRv: 2, previousPollAt: w.now() - RETENTION })
    expect(w.reads).toHaveLength(2)
    // That one checked the watermark (its cursor's previous read was too long ago): any later
    // cursor may take it.
    w.tick(10)
    await w.changes({ ...coll, sinceRv: 3, previousPollAt: w.now() - RETENTION })
    expect(w.reads).toHaveLength(2)
  })

  it('does not remember a failed read, and shares nothing with a window of 0', async () => {
    const w = world()
    const prev = w.now() - 200
    w.failing(true)
    await expect(w.changes({ ...coll, sinceRv: 0, previousPollAt: prev })).rejects.toThrow()
    w.failing(false)
    await w.changes({ ...coll, sinceRv: 0, previousPollAt: prev })
    expect(w.reads).toHaveLength(2)
    const off = world(0)
    await off.changes({ ...coll, sinceRv: 0, previousPollAt: prev })
    await off.changes({ ...coll, sinceRv: 0, previousPollAt: prev })
    expect(off.reads).toHaveLength(2)
  })

  it('holds at most maxCollections collections, the most recently read', async () => {
    const w = world(100, 2)
    const prev = w.now() - 200
    for (const ns of ['a', 'b', 'c'])
      await w.changes({ ...coll, namespace: ns, sinceRv: 0, previousPollAt: prev })
    await w.changes({ ...coll, namespace: 'c', sinceRv: 0, previousPollAt: prev })
    await w.changes({ ...coll, namespace: 'b', sinceRv: 0, previousPollAt: prev })
    expect(w.reads).toHaveLength(3)
    await w.changes({ ...coll, namespace: 'a', sinceRv: 0, previousPollAt: prev })
    expect(w.reads).toHaveLength(4)
  })
})
