/**
 * The hub's memory of slice listings: the same slices at the same resourceVersions, in the same
 * order, reuse one index (built once); a moved resourceVersion, another uid for the same name,
 * another order or a slice without a resourceVersion build again; only the last listings are kept.
 */
import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import {
  createSliceCache,
  listingKey,
  type SliceIndex,
} from '../../../lib/placement/slice-cache.ts'

const slice = (name: string, rv: string, uid = `uid-${name}`): KubeObject => ({
  apiVersion: 'edge.kcp.io/v2alpha1',
  kind: 'SinglePlacementSlice',
  metadata: { name, uid, annotations: { 'kcp.io/cluster': 'ws1' }, resourceVersion: rv },
})

/** A cache and a build that counts its calls and returns a fresh index each time. */
function counted(limit?: number) {
  const cache = createSliceCache(limit)
  let builds = 0
  const index = (listed: KubeObject[]) =>
    cache.index(listed, (): SliceIndex => {
      builds++
      return {
        valid: [],
        invalid: [],
        groups: [],
        byDestination: new Map(),
        meeting: new Set(),
        merged: new Map(),
      }
    })
  return { index, builds: () => builds }
}

describe('slice cache', () => {
  it('reuses the index of the same listing', () => {
    const c = counted()
    const first = c.index([slice('a', '5'), slice('b', '7')])
    expect(c.index([slice('a', '5'), slice('b', '7')])).toBe(first)
    const again = c.index([slice('a', '5'), slice('b', '7')])
    expect(again).toBe(first)
    expect(c.builds()).toBe(1)
  })

  it('builds again when any slice moved, was re-created, or the order differs', () => {
    const c = counted(8)
    const first = c.index([slice('a', '5'), slice('b', '7')])
    expect(c.index([slice('a', '5'), slice('b', '8')])).not.toBe(first)
    expect(c.index([slice('a', '5'), slice('b', '7', 'other-uid')])).not.toBe(first)
    expect(c.index([slice('b', '7'), slice('a', '5')])).not.toBe(first)
    expect(c.index([slice('a', '5')])).not.toBe(first)
    expect(c.builds()).toBe(5)
    expect(c.index([slice('a', '5'), slice('b', '7')])).toBe(first)
  })

  it('never keeps a listing with a slice that has no resourceVersion', () => {
    const c = counted()
    const unversioned = { ...slice('a', '5'), metadata: { name: 'a', uid: 'u' } }
    c.index([unversioned])
    c.index([unversioned])
    expect(c.builds()).toBe(2)
  })

  it('keeps the last listings only', () => {
    const c = counted(2)
    const one = c.index([slice('a', '1')])
    c.index([slice('a', '2')])
    c.index([slice('a', '3')])
    expect(c.index([slice('a', '1')])).not.toBe(one)
    expect(c.builds()).toBe(4)
  })

  it('keys a listing by workspace, name, uid and resourceVersion', () => {
    expect(listingKey([slice('a', '5')])).toBe('ws1/a/uid-a@5')
    expect(listingKey([])).toBe('')
  })
})
