import { describe, expect, it } from 'vitest'
import {
  bodiesToSend,
  buildDesiredState,
  deltaBase,
  isNotModified,
  parseIfNoneMatch,
  versionEtag,
} from '../../../lib/edge/desired-state.ts'
import { DesiredStateSchema } from '../../../lib/edge/protocol.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import type { Manifest, ManifestEntry } from '../../../lib/store/projection-types.ts'

const entry = (name: string, hash: string, rv: number): ManifestEntry => ({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespace: 'ns',
  name,
  hash,
  specHash: `s-${hash}`,
  rv,
  uid: `uid-${name}`,
  created: '2025-01-01T00:00:00Z',
  generation: 2,
})
const manifest: Manifest = {
  mailbox: 'space-id',
  version: 30,
  entries: [entry('a', 'h1', 10), entry('b', 'h2', 20), entry('c', 'h1', 30), entry('d', 'h3', 30)],
}
const body = (h: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: h },
})
const bodies = new Map(['h1', 'h2', 'h3'].map((h) => [h, body(h)]))

describe('If-None-Match', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['"5"', [5]],
    ['W/"5"', [5]],
    ['"3", "7"', [3, 7]],
    ['*', []],
    ['"abc", 5, "-1", "9"', [9]],
    ['"99999999999999999999"', []],
  ] as const)('%s names %o', (header, versions) => {
    expect(parseIfNoneMatch(header)).toEqual(versions)
  })
  it('304 only for the current version; the delta base must be older and positive', () => {
    expect(versionEtag(30)).toBe('"30"')
    expect(isNotModified([30], 30)).toBe(true)
    expect(isNotModified([29], 30)).toBe(false)
    expect(isNotModified([0], 0)).toBe(true)
    expect(deltaBase([20], 30)).toBe(20)
    expect(deltaBase([5, 20], 30)).toBe(20)
    expect(deltaBase([40], 30)).toBeUndefined()
    expect(deltaBase([0], 30)).toBeUndefined()
    expect(deltaBase([], 30)).toBeUndefined()
  })
})

describe('buildDesiredState', () => {
  it('sends the full index and every body once without a base', () => {
    expect(bodiesToSend(manifest, undefined)).toEqual(['h1', 'h2', 'h3'])
    const s = DesiredStateSchema.parse(buildDesiredState('mb', manifest, undefined, bodies))
    expect(s).toMatchObject({ kind: 'DesiredState', mailbox: 'mb', version: 30, full: true })
    expect(s.entries.map((e) => [e.name, e.hash, e.rv, e.generation])).toEqual([
      ['a', 'h1', 10, 2],
      ['b', 'h2', 20, 2],
      ['c', 'h1', 30, 2],
      ['d', 'h3', 30, 2],
    ])
    expect(s.entries[0]).not.toHaveProperty('uid')
    expect(Object.keys(s.bodies).sort()).toEqual(['h1', 'h2', 'h3'])
  })
  it('sends only the bodies of entries changed after the base', () => {
    expect(bodiesToSend(manifest, 20)).toEqual(['h1', 'h3'])
    const s = DesiredStateSchema.parse(buildDesiredState('mb', manifest, 20, bodies))
    expect(s.full).toBe(false)
    expect(s.entries).toHaveLength(4)
    expect(Object.keys(s.bodies).sort()).toEqual(['h1', 'h3'])
    expect(bodiesToSend(manifest, 30)).toEqual([])
  })
  it('marks tombstones removing and sends no body for them', () => {
    const tombstoned: Manifest = {
      ...manifest,
      entries: [
        entry('a', 'h1', 10),
        { ...entry('e', 'h2', 30), removing: '2025-01-02T00:00:00Z' },
      ],
    }
    expect(bodiesToSend(tombstoned, undefined)).toEqual(['h1'])
    const s = DesiredStateSchema.parse(buildDesiredState('mb', tombstoned, undefined, bodies))
    expect(s.entries.map((e) => [e.name, e.removing])).toEqual([
      ['a', undefined],
      ['e', true],
    ])
    expect(Object.keys(s.bodies)).toEqual(['h1'])
  })
  it('answers version 0, nothing, full for a mailbox without a manifest', () => {
    const s = DesiredStateSchema.parse(buildDesiredState('mb', undefined, undefined, new Map()))
    expect(s).toEqual({
      kind: 'DesiredState',
      mailbox: 'mb',
      version: 0,
      full: true,
      entries: [],
      bodies: {},
    })
  })
  it('names the workload spaces each entry comes from, sorted, and none when unknown', () => {
    const sourced: Manifest = {
      ...manifest,
      entries: [
        {
          ...entry('a', 'h1', 10),
          sources: [
            { space: 'zz', placements: ['p'] },
            { space: 'aa', placements: ['q', 'r'] },
          ],
        },
        entry('b', 'h2', 20),
      ],
    }
    const s = DesiredStateSchema.parse(buildDesiredState('mb', sourced, undefined, bodies))
    expect(s.entries.map((e) => e.tenants)).toEqual([['aa', 'zz'], undefined])
  })
})
