/**
 * The in-cluster ownership record's layout, as pure logic: which ConfigMaps are shards, reading
 * them (a corrupt one makes the record unreadable; a key in two shards is kept from the lower),
 * placing keys (a key never moves; a full shard opens the next), writing only the shards that
 * changed, and the size bound that keeps a full shard under the ConfigMap limit.
 */
import { describe, expect, it } from 'vitest'
import {
  confirmWrite,
  entriesText,
  type Layout,
  parseShards,
  planWrites,
  RecordUnreadable,
  reserveOf,
  SHARD_BUDGET,
  SHARD_MAX_BYTES,
  shardIndexOf,
  storedBytes,
} from '../../../lib/edge-agent/owned-shards.ts'
import type { Owned, OwnedRecord } from '../../../lib/edge-agent/ownership.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'

const entry = (name: string, extra: Partial<OwnedRecord> = {}): [string, OwnedRecord] => [
  `/configmaps/ns/${name}`,
  {
    group: '',
    version: 'v1',
    resource: 'configmaps',
    namespace: 'ns',
    name,
    uid: `uid-${name}`,
    hash: 'h',
    view: 'v',
    generations: [{ edge: 1, center: 1 }],
    ...extra,
  },
]

const shard = (name: string, objects: unknown, rv = '7'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'sys', resourceVersion: rv },
  data: { objects: typeof objects === 'string' ? objects : JSON.stringify(objects) },
})

const fresh = (): Layout => ({ shards: new Map(), home: new Map() })

/** Applies every planned write as the cluster would accept it. */
function writeAll(layout: Layout, owned: Owned, budget?: number) {
  const writes = planWrites(layout, owned, budget)
  for (const w of writes) confirmWrite(layout, owned, w, `rv-${w.index}-${w.text.length}`)
  return writes
}

describe('shard names', () => {
  it('takes <base>-<n> only', () => {
    expect(shardIndexOf('rec', 'rec-0')).toBe(0)
    expect(shardIndexOf('rec', 'rec-12')).toBe(12)
    for (const n of ['rec', 'rec-', 'rec-01', 'rec-x', 'rec-1-2', 'other-0', 'kube-root-ca.crt'])
      expect(shardIndexOf('rec', n)).toBeUndefined()
  })
})

describe('reading the record', () => {
  it('merges the shards and ignores other ConfigMaps', () => {
    const [ka, a] = entry('a')
    const [kb, b] = entry('b', { uid: undefined, pendingSince: '2030-01-01T00:00:00.000Z' })
    const r = parseShards('rec', [
      shard('rec-1', { [kb]: b }, '9'),
      shard('kube-root-ca.crt', 'not json'),
      shard('rec-0', { [ka]: a }),
      shard('recx-0', 'not json'),
    ])
    expect([...r.owned.keys()].sort()).toEqual([ka, kb])
    expect(r.owned.get(kb)?.pendingSince).toBeDefined()
    expect(r.layout.home.get(ka)).toBe(0)
    expect(r.layout.home.get(kb)).toBe(1)
    expect(r.layout.shards.get(1)?.rv).toBe('9')
    expect(r.duplicates).toEqual([])
  })

  it('refuses a shard it cannot parse, whatever else is readable', () => {
    const [ka, a] = entry('a')
    for (const bad of [
      shard('rec-1', '{"oops'),
      shard('rec-1', { k: { name: 'no ref fields' } }),
      { ...shard('rec-1', {}), data: {} },
    ])
      expect(() => parseShards('rec', [shard('rec-0', { [ka]: a }), bad])).toThrow(RecordUnreadable)
  })

  it('keeps a key found in two shards from the lower, and drops it from the other at the next write', () => {
    const [ka, a] = entry('a')
    const [kb, b] = entry('b')
    const r = parseShards('rec', [
      shard('rec-0', { [ka]: a }),
      shard('rec-1', { [ka]: { ...a, uid: 'other' }, [kb]: b }),
    ])
    expect(r.duplicates).toEqual([ka])
    expect(r.owned.get(ka)?.uid).toBe('uid-a')
    const writes = planWrites(r.layout, r.owned)
    expect(writes.map((w) => [w.index, w.entries])).toEqual([[1, [kb]]])
  })
})

describe('writing the record', () => {
  it('writes nothing for an empty record, and only the shards whose content changed', () => {
    const layout = fresh()
    const owned: Owned = new Map()
    expect(planWrites(layout, owned)).toEqual([])
    owned.set(...entry('a'))
    owned.set(...entry('b'))
    const first = writeAll(layout, owned)
    expect(first.map((w) => [w.index, w.rv, w.entries])).toEqual([
      [0, undefined, ['/configmaps/ns/a', '/configmaps/ns/b']],
    ])
    expect(planWrites(layout, owned)).toEqual([])
    owned.set(...entry('a', { hash: 'h2' }))
    const second = planWrites(layout, owned)
    expect(second).toHaveLength(1)
    expect(second[0]?.rv).toBe(layout.shards.get(0)?.rv)
  })

  it('spreads keys over shards within the budget and never moves one', () => {
    const layout = fresh()
    const owned: Owned = new Map()
    const names = Array.from({ length: 10 }, (_, i) => `n${i}`)
    for (const n of names) owned.set(...entry(n))
    const budget = 3 * reserveOf('/configmaps/ns/n0')
    const writes = writeAll(layout, owned, budget)
    expect(writes.map((w) => w.entries.length)).toEqual([3, 3, 3, 1])
    const homes = new Map(layout.home)
    // Two keys of shard 0 go (their room is free once that write is accepted), two new ones
    // come: they fill shard 0 again, and nothing else moves.
    owned.delete('/configmaps/ns/n0')
    owned.delete('/configmaps/ns/n1')
    expect(writeAll(layout, owned, budget).map((w) => w.index)).toEqual([0])
    owned.set(...entry('m1'))
    owned.set(...entry('m2'))
    const next = writeAll(layout, owned, budget)
    expect(next.map((w) => w.index)).toEqual([0])
    expect(layout.home.get('/configmaps/ns/m1')).toBe(0)
    expect(layout.home.get('/configmaps/ns/m2')).toBe(0)
    for (const n of names.slice(2))
      expect(layout.home.get(`/configmaps/ns/${n}`)).toBe(homes.get(`/configmaps/ns/${n}`))
    const everywhere = [...layout.shards.values()].flatMap((s) => [...s.keys])
    expect(everywhere.sort()).toEqual([...owned.keys()].sort())
  })

  it('keeps a key homed while a write that drops it has not been accepted', () => {
    const layout = fresh()
    const owned: Owned = new Map([entry('a')])
    writeAll(layout, owned)
    owned.delete('/configmaps/ns/a')
    expect(planWrites(layout, owned)).toHaveLength(1)
    // The write failed; the key comes back before the next one: still shard 0, nothing to write.
    owned.set(...entry('a'))
    expect(layout.home.get('/configmaps/ns/a')).toBe(0)
    expect(planWrites(layout, owned)).toEqual([])
  })

  it('bounds an entry at its largest by its reservation, so a full shard fits a ConfigMap', () => {
    const name = `${'x'.repeat(240)}.example.com`
    const big = (i: number): [string, OwnedRecord] => {
      const key = `apiextensions.k8s.io/customresourcedefinitions//${name}${i}`
      const rec: OwnedRecord = {
        group: 'apiextensions.k8s.io',
        version: 'v1beta1-very-long-version-name',
        resource: 'customresourcedefinitions',
        namespace: '',
        name: `${name}${i}`,
        uid: '0123456789abcdef-0123456789abcdef-0123',
        pendingSince: '2030-01-01T00:00:00.000Z',
        hash: 'f'.repeat(32),
        view: 'e'.repeat(32),
        generations: Array.from({ length: 8 }, (_, g) => ({
          edge: Number.MAX_SAFE_INTEGER - g,
          center: Number.MAX_SAFE_INTEGER - g,
        })),
        crdGroup: `${name}${i}`,
        createOnly: true,
      }
      return [key, rec]
    }
    const [k, r] = big(0)
    expect(storedBytes(entriesText([[k, r]]))).toBeLessThan(reserveOf(k))
    const owned: Owned = new Map()
    for (let i = 0; owned.size * reserveOf(k) <= SHARD_BUDGET + reserveOf(k); i++)
      owned.set(...big(i))
    const writes = planWrites(fresh(), owned)
    expect(writes.length).toBe(2)
    for (const w of writes) expect(storedBytes(w.text)).toBeLessThanOrEqual(SHARD_MAX_BYTES)
  })
})
