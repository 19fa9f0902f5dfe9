/** The deletion lifecycle's rules (lib/deletion/lifecycle.ts), read the same by every step. */
import { describe, expect, it } from 'vitest'
import {
  awaitsEdgeRemoval,
  EDGE_REMOVAL_FINALIZER,
  hasEdgeRemovalFinalizer,
  isConfirmedGone,
  withEdgeRemovalFinalizer,
  withoutEdgeRemovalFinalizer,
} from '../../../lib/deletion/lifecycle.ts'

const F = EDGE_REMOVAL_FINALIZER
const AT = '2030-01-01T00:00:00Z'

describe('the edge-removal finalizer', () => {
  it('awaits edge removal only while deleting and holding the finalizer', () => {
    expect(awaitsEdgeRemoval({ deletionTimestamp: AT, finalizers: ['x', F] })).toBe(true)
    expect(awaitsEdgeRemoval({ deletionTimestamp: AT, finalizers: ['x'] })).toBe(false)
    expect(awaitsEdgeRemoval({ finalizers: [F] })).toBe(false)
    expect(awaitsEdgeRemoval(undefined)).toBe(false)
    expect([hasEdgeRemovalFinalizer({ finalizers: [F] }), hasEdgeRemovalFinalizer({})]).toEqual([
      true,
      false,
    ])
  })

  it('is added once, last, and lifted leaving the others', () => {
    expect(withEdgeRemovalFinalizer(undefined)).toEqual([F])
    expect(withEdgeRemovalFinalizer(['a'])).toEqual(['a', F])
    expect(withEdgeRemovalFinalizer([F, 'a'])).toEqual(['a', F])
    expect(withoutEdgeRemovalFinalizer(['a', F, 'b'])).toEqual(['a', 'b'])
    expect(withoutEdgeRemovalFinalizer(undefined)).toEqual([])
  })
})

describe('removal confirmation', () => {
  it('takes a tombstone as gone only on a gone state of its own uid', () => {
    expect(isConfirmedGone({ uid: 'u1' }, { uid: 'u1', gone: true })).toBe(true)
    expect(isConfirmedGone({ uid: 'u1' }, { uid: 'u0', gone: true })).toBe(false)
    expect(isConfirmedGone({ uid: 'u1' }, { uid: 'u1' })).toBe(false)
    expect(isConfirmedGone({ uid: 'u1' }, undefined)).toBe(false)
  })
})
