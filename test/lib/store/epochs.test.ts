/**
 * Epochs (lib/store/epochs.ts) over a real (dynalite) key-value store: 0 before any move; a move
 * is seen at once by the store that made it and by another store object (another process) once
 * its value is older than the max age, which it reads at most once per max age; a failed read
 * trusts nothing; an announcer moves once for writes announcing together, spaces later moves while
 * the batch runs and makes its last one at once when settled, retries a failed one and reports
 * one that keeps failing from settle().
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDynamoStore } from '../../../lib/store/dynamo-store.ts'
import {
  bumpEpoch,
  currentEpoch,
  EPOCH_MAX_AGE_MS,
  epochAnnouncer,
} from '../../../lib/store/epochs.ts'
import type { KvStore } from '../../../lib/store/types.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { waitUntil } from '../../helpers/wait-until.ts'

let store: TestStore
beforeAll(async () => {
  store = await createTestStore()
})
afterAll(() => store.close())

/** Another process's view of the same table: its own store objects and caches. */
const otherProcess = () =>
  createDynamoStore({ client: store.client, tableName: store.tableName }).kv

/** `kv` with its gets and puts counted, and the time of each put. */
function counted(kv: KvStore) {
  const n = { get: 0, put: 0 }
  const putAt: number[] = []
  const wrapped: KvStore = {
    ...kv,
    get: (ns, key) => {
      n.get++
      return kv.get(ns, key)
    },
    put: (ns, key, value, expected) => {
      n.put++
      putAt.push(Date.now())
      return kv.put(ns, key, value, expected)
    },
  }
  return { kv: wrapped, n, putAt }
}

describe('epochs', () => {
  it('starts at 0; a move is seen at once here and elsewhere once the value is old', async () => {
    const here = store.kv
    const there = otherProcess()
    const t0 = Date.now()
    expect(await currentEpoch(here, 'credentials', t0)).toBe(0)
    expect(await currentEpoch(there, 'credentials', t0)).toBe(0)
    await bumpEpoch(here, 'credentials')
    expect(await currentEpoch(here, 'credentials', Date.now())).toBe(1)
    // The other process keeps its value until it is older than the max age...
    expect(await currentEpoch(there, 'credentials', t0 + 1)).toBe(0)
    // ...then reads the moved one.
    expect(await currentEpoch(there, 'credentials', t0 + EPOCH_MAX_AGE_MS + 1)).toBe(1)
    // Each epoch counts on its own.
    expect(await currentEpoch(there, 'manifests', t0)).toBe(0)
  })

  it('reads at most once per max age, and trusts nothing when the read fails', async () => {
    const { kv, n } = counted(otherProcess())
    const t0 = Date.now()
    for (let i = 0; i < 50; i++) await currentEpoch(kv, 'manifests', t0 + i * 10)
    expect(n.get).toBe(1)
    await currentEpoch(kv, 'manifests', t0 + EPOCH_MAX_AGE_MS + 1)
    expect(n.get).toBe(2)
    const failing: KvStore = { ...otherProcess(), get: () => Promise.reject(new Error('down')) }
    expect(await currentEpoch(failing, 'manifests', t0)).toBeUndefined()
  })

  it('moves once for writes announcing together, spaces later moves, and settles at once', async () => {
    const { kv, n, putAt } = counted(otherProcess())
    const version = async () => (await kv.get('epochs', 'manifests'))?.version ?? 0
    const announcer = epochAnnouncer(kv, 'manifests', 200)
    const before = await version()
    for (let i = 0; i < 8; i++) announcer.announce()
    await waitUntil(() => n.put === 1)
    // While the batch runs, writes after that move get the next one no sooner than the spacing,
    // measured between the two moves themselves: when this test sees the first one depends on
    // the machine's load (a busy run once saw it 60 ms late and measured the gap from there).
    for (let i = 0; i < 20; i++) announcer.announce()
    await waitUntil(() => n.put === 2)
    expect((putAt[1] ?? 0) - (putAt[0] ?? 0)).toBeGreaterThanOrEqual(199)
    await announcer.settle()
    expect(n.put).toBe(2)
    expect(await version()).toBe(before + 2)
  })

  it("makes a settled batch's last move at once, not after the spacing", async () => {
    const { kv, n } = counted(otherProcess())
    const announcer = epochAnnouncer(kv, 'manifests', 60_000)
    announcer.announce()
    await waitUntil(() => n.put === 1)
    announcer.announce()
    const t0 = Date.now()
    await announcer.settle()
    expect(n.put).toBe(2)
    // Far below the minute a move inside the batch would have waited.
    expect(Date.now() - t0).toBeLessThan(30_000)
  })

  it('tries a failed move again, and settle() reports one that kept failing', async () => {
    let fails = 2
    const base = otherProcess()
    const flaky: KvStore = {
      ...base,
      put: (ns, key, value, expected) =>
        fails-- > 0 ? Promise.reject(new Error('throttled')) : base.put(ns, key, value, expected),
    }
    const announcer = epochAnnouncer(flaky, 'manifests', 0)
    announcer.announce()
    await announcer.settle()
    const down: KvStore = { ...base, put: () => Promise.reject(new Error('down')) }
    const failing = epochAnnouncer(down, 'manifests', 0)
    failing.announce()
    await expect(failing.settle()).rejects.toThrow('down')
  })
})
