import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { createSliceIndex, mailboxesOfSlice } from '../../../lib/relay/slice-index.ts'

const U1 = '0a1b2c3d-1111-2222-3333-000000000001'
const U2 = '0a1b2c3d-1111-2222-3333-000000000002'

describe('slice index', () => {
  const dest = (cluster: string, locationName: string, uid?: string) => ({
    cluster,
    locationName,
    syncTargetName: 'st',
    ...(uid === undefined ? {} : { syncTargetUID: uid }),
  })
  const slice = (destinations: unknown): KubeObject =>
    ({
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'SinglePlacementSlice',
      metadata: { name: 's' },
      destinations,
    }) as KubeObject

  it('reads mailbox names from destinations, skipping those without uid or valid mailbox name', () => {
    const s = slice([
      dest('inv2', 'l', U2),
      dest('inv1', 'l', U1),
      dest('inv1', 'other', U1),
      dest('inv1', 'no-uid'),
      dest('Bad Space', 'l', U1),
      dest('inv1', 'l', 'not-a-uid'),
    ])
    expect(mailboxesOfSlice(s)).toEqual([`inv1-mb-${U1}`, `inv2-mb-${U2}`])
    expect(mailboxesOfSlice(slice(undefined))).toEqual([])
  })

  it('reads nothing from a slice that does not decode, as the translate step skips it', () => {
    expect(mailboxesOfSlice(slice([dest('inv1', 'l', U1), 'junk']))).toEqual([])
    expect(mailboxesOfSlice(slice([{ cluster: 'inv1', syncTargetUID: U1 }]))).toEqual([])
    expect(mailboxesOfSlice(slice(null))).toEqual([])
    expect(mailboxesOfSlice({ ...slice([dest('inv1', 'l', U1)]), kind: 'Other' })).toEqual([])
  })

  it('keeps mailboxes per slice and per space, returning what a slice had before', () => {
    const index = createSliceIndex()
    expect(index.set('ws1', 'a', ['m1', 'm2'])).toEqual([])
    expect(index.set('ws1', 'b', ['m2', 'm3'])).toEqual([])
    expect(index.set('ws2', 'a', [])).toEqual([])
    expect(index.ofSpace('ws1')).toEqual(['m1', 'm2', 'm3'])
    expect(index.spaces()).toEqual(['ws1'])
    expect(index.set('ws1', 'a', ['m4'])).toEqual(['m1', 'm2'])
    expect(index.ofSlice('ws1', 'a')).toEqual(['m4'])
    expect(index.ofSpace('ws1')).toEqual(['m2', 'm3', 'm4'])
    expect(index.remove('ws1', 'b')).toEqual(['m2', 'm3'])
    expect(index.remove('ws1', 'b')).toEqual([])
    expect(index.slices()).toEqual([
      { space: 'ws1', name: 'a', placement: 'a' },
      { space: 'ws2', name: 'a', placement: 'a' },
    ])
    index.remove('ws1', 'a')
    expect(index.ofSpace('ws1')).toEqual([])
    expect(index.spaces()).toEqual([])
  })

  it("gathers a placement's mailboxes over all its slices, and names the placement per slice", () => {
    const index = createSliceIndex()
    index.set('ws1', 'big', ['m1', 'm2'])
    index.set('ws1', 'big-x7k2p', ['m3'], { placement: 'big' })
    index.set('ws1', 'big-2', ['m9'])
    index.set('ws2', 'big-q9z4w', ['m4'], { placement: 'big' })
    expect(index.ofPlacement('ws1', 'big')).toEqual(['m1', 'm2', 'm3'])
    expect(index.ofPlacement('ws1', 'big-2')).toEqual(['m9'])
    expect(index.ofPlacement('ws2', 'big')).toEqual(['m4'])
    expect(index.slicesNaming('m3')).toEqual([
      { space: 'ws1', name: 'big-x7k2p', placement: 'big' },
    ])
    // Re-set without an owner, the slice is its own placement again.
    index.set('ws1', 'big-x7k2p', ['m3'])
    expect(index.ofPlacement('ws1', 'big')).toEqual(['m1', 'm2'])
    index.set('ws1', 'big-x7k2p', ['m3'], { placement: 'big' })
    expect(index.remove('ws1', 'big-x7k2p')).toEqual(['m3'])
    expect(index.ofPlacement('ws1', 'big')).toEqual(['m1', 'm2'])
  })

  it('names every (Location, mailbox) pair of a space once, across its slices', () => {
    const idx = createSliceIndex()
    const m1 = `inv1-mb-${U1}`
    const m2 = `inv1-mb-${U2}`
    const through = (locationName: string, mailbox: string) => ({
      cluster: 'inv1',
      locationName,
      mailbox,
    })
    idx.set('ws', 'a', [m1, m2], { locations: [through('l1', m1), through('l2', m2)] })
    idx.set('ws', 'b', [m1], { locations: [through('l1', m1), through('l3', m1)] })
    idx.set('other', 'c', [m2], { locations: [through('l9', m2)] })
    const pairs = idx
      .destinationsOfSpace('ws')
      .map((d) => `${d.cluster}/${d.locationName} ${d.mailbox}`)
    expect(pairs.sort()).toEqual([`inv1/l1 ${m1}`, `inv1/l2 ${m2}`, `inv1/l3 ${m1}`])
    idx.remove('ws', 'b')
    expect(idx.destinationsOfSpace('ws')).toHaveLength(2)
    expect(idx.destinationsOfSpace('none')).toEqual([])
  })
})
