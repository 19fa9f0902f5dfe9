/**
 * The version-choice memory on the real key-value store (dynalite): sticky across translations and
 * across a restart (a new store over the same table, nothing kept in the process), read at most
 * once and written only where the manifest's live copies cannot stand for it, the read skipped
 * when the previous manifest shows the only possible choice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  chooseVersions,
  liveVersions,
  manifestVersions,
  VERSION_MEMORY_NS,
} from '../../../functions/reconcile-translate/version-memory.ts'
import { createDynamoStore } from '../../../lib/store/dynamo-store.ts'
import type { Manifest } from '../../../lib/store/projection-types.ts'
import type { KvStore } from '../../../lib/store/types.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

let t: TestStore
beforeAll(async () => {
  t = await createTestStore()
})
afterAll(() => t.close())

/** The KvStore with its reads and writes counted. */
function counted(kv: KvStore) {
  const calls = { get: 0, put: 0 }
  const wrapped: KvStore = {
    ...kv,
    get: (ns, key) => {
      calls.get++
      return kv.get(ns, key)
    },
    put: (ns, key, value, expected) => {
      calls.put++
      return kv.put(ns, key, value, expected)
    },
  }
  return { kv: wrapped, calls }
}

const none = new Map<string, Set<string>>()
const g = (entries: [string, string[]][]) => new Map(entries)

const at = (entries: [string, string[]][]) =>
  new Map(entries.map(([k, v]) => [k, new Set(v)] as const))
const stored = async (id: string) => (await t.kv.get(VERSION_MEMORY_NS, id))?.value

describe('chooseVersions', () => {
  it('takes the memory read ahead instead of reading, and fails with Conflict when it is stale', async () => {
    const { kv, calls } = counted(t.kv)
    await t.kv.put(VERSION_MEMORY_NS, 'mb-ahead', { 'apps.test': 'v1' })
    const ahead = await t.kv.get<Record<string, string>>(VERSION_MEMORY_NS, 'mb-ahead')
    const cands = g([
      ['apps.test', ['v2', 'v1']],
      ['x.test', ['v1']],
    ])
    const chosen = await chooseVersions(kv, 'mb-ahead', cands, {
      seen: none,
      read: async () => ahead,
    })
    expect(chosen.versions.get('apps.test')).toBe('v1')
    // x.test's copies do not land (the manifest cannot stand for the choice): it is written.
    await chosen.remember(at([['apps.test', ['v1']]]))
    expect(calls).toEqual({ get: 0, put: 1 })
    expect(await stored('mb-ahead')).toEqual({ 'apps.test': 'v1', 'x.test': 'v1' })
    // The same read ahead, now stale (the memory moved since): the write's precondition fails.
    const more = g([
      ['apps.test', ['v2', 'v1']],
      ['y.test', ['v1']],
    ])
    const stale = await chooseVersions(kv, 'mb-ahead', more, {
      seen: none,
      read: async () => ahead,
    })
    await expect(stale.remember(none)).rejects.toMatchObject({ code: 409, reason: 'Conflict' })
  })

  it('lets the manifest remember a first choice and sticks with it while it is a candidate', async () => {
    const { kv, calls } = counted(t.kv)
    const first = await chooseVersions(kv, 'mb-1', g([['apps.test', ['v2', 'v1']]]), { seen: none })
    expect(first.versions.get('apps.test')).toBe('v2')
    await first.remember(at([['apps.test', ['v2']]]))
    // The copies landing at v2 witness the choice: nothing is written.
    expect(calls).toEqual({ get: 1, put: 0 })
    expect(await stored('mb-1')).toBeUndefined()
    // v3 appears, v2 is still a candidate: stay with v2 (the manifest's), no write
    const seen = at([['apps.test', ['v2']]])
    const again = await chooseVersions(kv, 'mb-1', g([['apps.test', ['v3', 'v2']]]), { seen })
    expect(again.versions.get('apps.test')).toBe('v2')
    await again.remember(seen)
    expect(calls).toEqual({ get: 2, put: 0 })
  })

  it('writes a remembered group down when its last live copy leaves, and sticks with it later', async () => {
    const { kv, calls } = counted(t.kv)
    const seen = at([['apps.test', ['v2']]])
    const leaving = await chooseVersions(kv, 'mb-1', new Map(), { seen })
    await leaving.remember(none)
    expect(calls).toEqual({ get: 1, put: 1 })
    expect(await stored('mb-1')).toEqual({ 'apps.test': 'v2' })
    const back = await chooseVersions(kv, 'mb-1', g([['apps.test', ['v3', 'v2']]]), { seen: none })
    expect(back.versions.get('apps.test')).toBe('v2')
  })

  it('re-picks the highest when the remembered version is gone, and remembers it', async () => {
    const { kv, calls } = counted(t.kv)
    const next = await chooseVersions(kv, 'mb-1', g([['apps.test', ['v1', 'v3']]]), { seen: none })
    expect(next.versions.get('apps.test')).toBe('v3')
    // The item says v2: the manifest cannot overrule it, so the item is written.
    await next.remember(at([['apps.test', ['v3']]]))
    expect(calls).toEqual({ get: 1, put: 1 })
    expect(await stored('mb-1')).toEqual({ 'apps.test': 'v3' })
  })

  it('keeps its choices across a restart (a new store over the same table)', async () => {
    const restarted = createDynamoStore({ client: t.client, tableName: t.tableName, settleMs: 0 })
    const first = await chooseVersions(restarted.kv, 'mb-2', g([['x.test', ['v1']]]), {
      seen: none,
    })
    await first.remember(none)
    const after = createDynamoStore({ client: t.client, tableName: t.tableName, settleMs: 0 })
    const sticky = await chooseVersions(after.kv, 'mb-2', g([['x.test', ['v2', 'v1']]]), {
      seen: none,
    })
    expect(sticky.versions.get('x.test')).toBe('v1')
    // a fresh mailbox with the same situation picks the highest
    const fresh = await chooseVersions(after.kv, 'mb-3', g([['x.test', ['v2', 'v1']]]), {
      seen: none,
    })
    expect(fresh.versions.get('x.test')).toBe('v2')
  })

  it('skips the read when every group has one candidate the previous manifest already holds', async () => {
    const { kv, calls } = counted(t.kv)
    const seen = g([
      ['', ['v1']],
      ['apps', ['v1']],
    ])
    const prev = at([...seen])
    const out = await chooseVersions(kv, 'mb-4', seen, { seen: prev })
    expect(out.versions).toEqual(
      new Map([
        ['', 'v1'],
        ['apps', 'v1'],
      ])
    )
    await out.remember(prev)
    expect(calls).toEqual({ get: 0, put: 0 })
    // a group the manifest does not hold yet: read; its copies landing witness it
    const added = await chooseVersions(kv, 'mb-4', g([...seen, ['new.test', ['v1']]]), {
      seen: prev,
    })
    await added.remember(at([...seen, ['new.test', ['v1']]]))
    expect(calls).toEqual({ get: 1, put: 0 })
    // the manifest at another version than the only candidate: read; the item lacks the group
    // and the copies land at the new version, so the manifest stands for it again
    const moved = at([['apps', ['v1beta1']]])
    const again = await chooseVersions(kv, 'mb-4', g([['apps', ['v1']]]), { seen: moved })
    await again.remember(at([['apps', ['v1']]]))
    expect(calls).toEqual({ get: 2, put: 0 })
  })

  it('reads after all when it skipped the read but the copies do not land', async () => {
    const { kv, calls } = counted(t.kv)
    const prev = at([['apps', ['v1']]])
    const out = await chooseVersions(kv, 'mb-7', g([['apps', ['v1']]]), { seen: prev })
    expect(calls).toEqual({ get: 0, put: 0 })
    await out.remember(none)
    expect(calls).toEqual({ get: 1, put: 1 })
    expect(await stored('mb-7')).toEqual({ apps: 'v1' })
  })

  it('remembers a forced choice whose copies did not land, so a later overlap sticks with it', async () => {
    const forced = await chooseVersions(t.kv, 'mb-5', g([['y.test', ['v1']]]), { seen: none })
    await forced.remember(none)
    const later = await chooseVersions(t.kv, 'mb-5', g([['y.test', ['v2', 'v1']]]), { seen: none })
    expect(later.versions.get('y.test')).toBe('v1')
  })

  it('takes the manifest as the memory of a group the item lacks', async () => {
    const held = at([['z.test', ['v1']]])
    const out = await chooseVersions(t.kv, 'mb-6', g([['z.test', ['v2', 'v1']]]), { seen: held })
    expect(out.versions.get('z.test')).toBe('v1')
    await out.remember(held)
    expect(await stored('mb-6')).toBeUndefined()
  })

  it('reads the versions of the live copies per group, leaving tombstones out', () => {
    const entry = (group: string, version: string, removing?: string) =>
      ({ group, version, ...(removing ? { removing } : {}) }) as never
    const entries = [
      entry('', 'v1'),
      entry('a', 'v1'),
      entry('a', 'v2'),
      entry('b', 'v1beta1', '2026-01-01T00:00:00Z'),
      entry('b', 'v1'),
      entry('c', 'v1', '2026-01-01T00:00:00Z'),
    ]
    const m: Manifest = { mailbox: 'mb', version: 1, entries }
    expect(manifestVersions(m)).toEqual(
      new Map([
        ['', new Set(['v1'])],
        ['a', new Set(['v1', 'v2'])],
        ['b', new Set(['v1'])],
      ])
    )
    expect(liveVersions(entries)).toEqual(manifestVersions(m))
    expect(manifestVersions(undefined).size).toBe(0)
  })
})
