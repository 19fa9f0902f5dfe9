/**
 * The deletion lifecycle's tombstones (lib/deletion/tombstones.ts: made, kept, dropped and
 * revived; sources per key).
 */
import { describe, expect, it } from 'vitest'
import {
  departedSpaces,
  type SelectionSources,
  sourcesOf,
  withRemovals,
} from '../../../lib/deletion/tombstones.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import type {
  DesiredEntry,
  ManifestEntry,
  StoredCopyState,
} from '../../../lib/store/projection-types.ts'

const NOW = new Date('2030-05-06T07:08:09.123Z')
const body = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'ns' },
})
const want = (name: string): DesiredEntry => ({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespace: 'ns',
  name,
  body: body(name),
})
const had = (name: string, extra: Partial<ManifestEntry> = {}): ManifestEntry => ({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespace: 'ns',
  name,
  hash: `h-${name}`,
  specHash: `s-${name}`,
  rv: 5,
  uid: `uid-${name}`,
  created: '2030-01-01T00:00:00Z',
  generation: 1,
  ...extra,
})
const bodies = new Map(['a', 'b', 'c'].map((n) => [`h-${n}`, body(n)]))
const src = [{ space: 'ws1', placements: ['ep1'] }]
const gone = (name: string, uid = `uid-${name}`): [string, StoredCopyState] => [
  `/configmaps/ns/${name}`,
  { uid, status: {}, gone: true, rv: 9 },
]
const none = new Map()
/** The agent was served everything these tests' entries were added at. */
const served = { kind: 'at', version: 100 } as const

describe('withRemovals', () => {
  it('turns an entry no longer desired into a tombstone with its body and sources', () => {
    const out = withRemovals({
      desired: [want('a')],
      previous: [had('a'), had('b', { sources: src })],
      bodies,
      states: none,
      sources: new Map([['/configmaps/ns/a', src]]),
      served,
      now: NOW,
    })
    expect(out).toEqual([
      { ...want('a'), sources: src },
      { ...want('b'), removing: '2030-05-06T07:08:09Z', sources: src },
    ])
  })

  it('keeps a tombstone (same time) until a gone state of its own uid drops it', () => {
    const tomb = had('b', { removing: '2030-01-02T00:00:00Z' })
    const input = { desired: [], previous: [tomb], bodies, sources: none, served, now: NOW }
    expect(withRemovals({ ...input, states: none })).toEqual([
      { ...want('b'), removing: '2030-01-02T00:00:00Z' },
    ])
    const other = new Map([gone('b', 'uid-of-an-earlier-copy')])
    expect(withRemovals({ ...input, states: other })).toHaveLength(1)
    expect(withRemovals({ ...input, states: new Map([gone('b')]) })).toEqual([])
  })

  it('revives a tombstone desired again, and drops what has no body', () => {
    const out = withRemovals({
      desired: [want('b')],
      previous: [had('b', { removing: '2030-01-02T00:00:00Z' }), had('lost')],
      bodies,
      states: new Map([gone('b')]),
      sources: none,
      served,
      now: NOW,
    })
    expect(out).toEqual([want('b')])
  })

  it('drops at once a leaving copy its edge never received, and keeps one it may hold', () => {
    const base = { desired: [], bodies, states: none, sources: none, now: NOW }
    const tomb = { removing: '2030-01-02T00:00:00Z' }
    const previous = [
      had('a', { added: 7 }),
      had('b', { added: 7, ...tomb }),
      had('c', { added: 3 }),
    ]
    const at = (version: number) => ({ kind: 'at', version }) as const
    const names = (served: Parameters<typeof withRemovals>[0]['served']) =>
      withRemovals({ ...base, previous, served }).map((e) => e.name)
    // Never served at all: nothing to wait for.
    expect(names({ kind: 'never' })).toEqual([])
    // Served up to 6: a and b (added at 7) never reached the edge, c (added at 3) may be there.
    expect(names(at(6))).toEqual(['c'])
    expect(names(at(7))).toEqual(['a', 'b', 'c'])
    // The table's marks are not complete yet (migrating): every tombstone is kept.
    expect(names({ kind: 'unknown' })).toEqual(['a', 'b', 'c'])
  })

  it('keeps an entry from before added was recorded whenever its mailbox was served', () => {
    const base = { desired: [], bodies, states: none, sources: none, now: NOW }
    const previous = [had('a')]
    expect(withRemovals({ ...base, previous, served: { kind: 'at', version: 1 } })).toHaveLength(1)
    expect(withRemovals({ ...base, previous, served: { kind: 'never' } })).toEqual([])
  })
})

describe('sourcesOf / departedSpaces', () => {
  it('lists per key the spaces and placements selecting it, sorted', () => {
    const sel = (space: string, placement: string, names: string[]) =>
      ({
        ref: { spaceId: space, placement: { metadata: { name: placement } } },
        selection: {
          objects: names.map((n) => ({
            group: '',
            version: 'v1',
            resource: 'configmaps',
            namespaced: true,
            object: body(n),
          })),
        },
      }) as unknown as SelectionSources
    const out = sourcesOf([
      sel('ws2', 'p', ['a']),
      sel('ws1', 'q', ['a', 'b']),
      sel('ws1', 'p', ['a']),
    ])
    expect(out.get('/configmaps/ns/a')).toEqual([
      { space: 'ws1', placements: ['p', 'q'] },
      { space: 'ws2', placements: ['p'] },
    ])
    expect(out.get('/configmaps/ns/b')).toEqual([{ space: 'ws1', placements: ['q'] }])
    expect(
      departedSpaces([
        { removing: 'x', sources: [{ space: 'ws1', placements: [] }] },
        { sources: [{ space: 'ws2', placements: [] }] },
      ])
    ).toEqual(new Set(['ws1']))
  })
})
