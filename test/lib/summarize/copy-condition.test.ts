/**
 * copyCondition and the deletion lifecycle: a tombstoned copy is `removing` at a live destination
 * (stale at a silent one), and a live copy whose only state says `gone` (an earlier removal of the
 * same copy, confirmed before it was placed again) is pending, not applied.
 */
import { describe, expect, it } from 'vitest'
import type { ManifestEntry, StoredCopyState } from '../../../lib/store/projection-types.ts'
import { copyCondition } from '../../../lib/summarize/copy-condition.ts'

const entry = (extra: Partial<ManifestEntry> = {}): ManifestEntry => ({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespace: 'n',
  name: 'c',
  hash: 'h',
  specHash: 's',
  rv: 3,
  uid: 'u1',
  created: '2030-01-01T00:00:00Z',
  generation: 1,
  ...extra,
})
const applied: StoredCopyState = { uid: 'u1', status: {}, observedGeneration: 1, rv: 4 }

describe('copyCondition in the deletion lifecycle', () => {
  it('says removing for a tombstone at a live destination, stale at a silent one', () => {
    const tomb = entry({ removing: '2030-01-02T00:00:00Z' })
    expect(copyCondition({ live: true, entry: tomb, state: applied })).toEqual({
      state: 'removing',
      reason: 'Removing',
    })
    expect(copyCondition({ live: false, entry: tomb }).state).toBe('stale')
  })

  it('says pending for a live copy whose state is a confirmed removal', () => {
    expect(copyCondition({ live: true, entry: entry(), state: applied }).state).toBe('ready')
    const gone = { ...applied, gone: true }
    expect(copyCondition({ live: true, entry: entry(), state: gone })).toEqual({
      state: 'pending',
      reason: 'NotReported',
    })
  })
})
