/**
 * The version-choice memory on the real key-value store (dynalite): sticky across translations and
 * across a restart (a new store over the same table, nothing kept in the process), read at most
 * once and written only when a choice changes, the read skipped when the previous manifest shows
 * the only possible choice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  chooseVersions,
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
    expect(chosen.get('apps.test')).toBe('v1')
    expect(calls).toEqual({ get: 0, put: 1 })
    // The same read ahead, now stale (the memory moved since): the write's precondition fails.
    const more = g([
      ['apps.test', ['v2', 'v1']],
      ['y.test', ['v1']],
    ])
    await expect(
      chooseVersions(kv, 'mb-ahead', more, { seen: none, read: async () => ahead })
    ).rejects.toMatchObject({ code: 409, reason: 'Conflict' })
  })

  it('remembers the first choice and sticks with it while it is a candidate', async () => {
    const { kv, calls } = counted(t.kv)
    const first = await chooseVersions(kv, 'mb-1', g([['apps.test', ['v2', 'v1']]]), { seen: none })
    expect(first.get('apps.test')).toBe('v2')
    expect(calls).toEqual({ get: 1, put: 1 })
    expect((await t.kv.get(VERSION_MEMORY_NS, 'mb-1'))?.value).toEqual({ 'apps.test': 'v2' })
    // v1 is still a candidate but v2 too: stay with v2, no write
    const again = await chooseVersions(kv, 'mb-1', g([['apps.test', ['v3', 'v2']]]), { seen: none })
    expect(again.get('apps.test')).toBe('v2')
    expect(calls).toEqual({ get: 2, put: 1 })
  })

  it('re-picks the highest when the remembered version is gone, and remembers it', async () => {
    const { kv, calls } = counted(t.kv)
    const next = await chooseVersions(kv, 'mb-1', g([['apps.test', ['v1', 'v3']]]), { seen: none })
    expect(next.get('apps.test')).toBe('v3')
    expect(calls).toEqual({ get: 1, put: 1 })
    expect((await t.kv.get(VERSION_MEMORY_NS, 'mb-1'))?.value).toEqual({ 'apps.test': 'v3' })
  })

  it('keeps its choices across a restart (a new store over the same table)', async () => {
    const restarted = createDynamoStore({ client: t.client, tableName: t.tableName, settleMs: 0 })
    await chooseVersions(restarted.kv, 'mb-2', g([['x.test', ['v1']]]), { seen: none })
    const after = createDynamoStore({ client: t.client, tableName: t.tableName, settleMs: 0 })
    const sticky = await chooseVersions(after.kv, 'mb-2', g([['x.test', ['v2', 'v1']]]), {
      seen: none,
    })
    expect(sticky.get('x.test')).toBe('v1')
    // a fresh mailbox with the same situation picks the highest
    const fresh = await chooseVersions(after.kv, 'mb-3', g([['x.test', ['v2', 'v1']]]), {
      seen: none,
    })
    expect(fresh.get('x.test')).toBe('v2')
  })

  it('skips the read when every group has one candidate the previous manifest already holds', async () => {
    const { kv, calls } = counted(t.kv)
    const seen = g([
      ['', ['v1']],
      ['apps', ['v1']],
    ])
    const prev = new Map([...seen].map(([k, v]) => [k, new Set(v)]))
    const out = await chooseVersions(kv, 'mb-4', seen, { seen: prev })
    expect(out).toEqual(
      new Map([
        ['', 'v1'],
        ['apps', 'v1'],
      ])
    )
    expect(calls).toEqual({ get: 0, put: 0 })
    // a group the manifest does not hold yet: read, and write the new choice
    await chooseVersions(kv, 'mb-4', g([['new.test', ['v1']]]), { seen: prev })
    expect(calls).toEqual({ get: 1, put: 1 })
    // the manifest at another version than the only candidate: read (and write)
    const moved = new Map([['apps', new Set(['v1beta1'])]])
    await chooseVersions(kv, 'mb-4', g([['apps', ['v1']]]), { seen: moved })
    expect(calls).toEqual({ get: 2, put: 2 })
  })

  it('remembers a forced choice, so a later overlap sticks with it', async () => {
    await chooseVersions(t.kv, 'mb-5', g([['y.test', ['v1']]]), { seen: none })
    const later = await chooseVersions(t.kv, 'mb-5', g([['y.test', ['v2', 'v1']]]), { seen: none })
    expect(later.get('y.test')).toBe('v1')
  })

  it('takes the manifest as the memory of a group the item lacks', async () => {
    const held = new Map([['z.test', new Set(['v1'])]])
    const out = await chooseVersions(t.kv, 'mb-6', g([['z.test', ['v2', 'v1']]]), { seen: held })
    expect(out.get('z.test')).toBe('v1')
    expect((await t.kv.get(VERSION_MEMORY_NS, 'mb-6'))?.value).toEqual({ 'z.test': 'v1' })
  })

  it('reads the versions a manifest holds per group', () => {
    const entry = (group: string, version: string) => ({ group, version }) as never
    const entries = [entry('', 'v1'), entry('a', 'v1'), entry('a', 'v2')]
    const m: Manifest = { mailbox: 'mb', version: 1, entries }
    expect(manifestVersions(m)).toEqual(
      new Map([
        ['', new Set(['v1'])],
        ['a', new Set(['v1', 'v2'])],
      ])
    )
    expect(manifestVersions(undefined).size).toBe(0)
  })
})
