import { describe, expect, it } from 'vitest'
import {
  configMapKey,
  hashAt,
  namespaceKey,
  SYNCER_CONFIG_KEY,
  unmet,
} from '../../bench/fan-out-check.ts'
import type { Manifest, ManifestEntry } from '../../lib/store/projection-types.ts'

type At = { group: string; resource: string; namespace: string; name: string }

/** A stored manifest entry for the object `at` names, with body hash `hash`. */
function entry(at: At, hash: string) {
  const { group, resource, namespace, name } = at
  const e: ManifestEntry = {
    group,
    version: group ? 'v1alpha1' : 'v1',
    resource,
    namespace,
    name,
    hash,
    specHash: `s-${hash}`,
    rv: 1,
    uid: 'u',
    created: '2024-01-01T00:00:00Z',
    generation: 1,
  }
  return e
}

const manifest: Manifest = {
  mailbox: 'mb1',
  version: 3,
  entries: [
    entry({ group: '', resource: 'configmaps', namespace: 'fan', name: 'cm-0' }, 'h0'),
    entry({ group: '', resource: 'configmaps', namespace: 'fan', name: 'cm-1' }, 'h1'),
    entry({ group: '', resource: 'namespaces', namespace: '', name: 'fan' }, 'hn'),
    entry(
      { group: 'edge.kcp.io', resource: 'syncerconfigs', namespace: '', name: 'the-one' },
      'hs'
    ),
  ],
}

describe('unmet', () => {
  it.each([
    [
      'everything present',
      [configMapKey('fan', 'cm-0'), namespaceKey('fan'), SYNCER_CONFIG_KEY],
      0,
    ],
    ['one missing', [configMapKey('fan', 'cm-0'), configMapKey('fan', 'cm-2')], 1],
    ['other namespace', [configMapKey('other', 'cm-0')], 1],
  ])('%s', (_, keys, want) => {
    expect(
      unmet(
        manifest,
        keys.map((key) => ({ key }))
      )
    ).toBe(want)
  })

  it('counts an entry that still has the hash it must have lost', () => {
    expect(unmet(manifest, [{ key: SYNCER_CONFIG_KEY, notHash: 'hs' }])).toBe(1)
    expect(unmet(manifest, [{ key: SYNCER_CONFIG_KEY, notHash: 'old' }])).toBe(0)
  })

  it('counts everything when there is no manifest', () => {
    expect(unmet(undefined, [{ key: SYNCER_CONFIG_KEY }, { key: namespaceKey('fan') }])).toBe(2)
  })
})

describe('hashAt', () => {
  it('finds the hash of an entry by key', () => {
    expect(hashAt(manifest, configMapKey('fan', 'cm-1'))).toBe('h1')
    expect(hashAt(manifest, SYNCER_CONFIG_KEY)).toBe('hs')
    expect(hashAt(manifest, configMapKey('fan', 'nope'))).toBeUndefined()
    expect(hashAt(undefined, SYNCER_CONFIG_KEY)).toBeUndefined()
  })
})
