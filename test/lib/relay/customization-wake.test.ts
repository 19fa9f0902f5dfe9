/**
 * What wakes translate for customization: a Location change wakes the mailboxes some slice reaches
 * through that Location (their copies take parameters from it), besides every where-key; a
 * Customizer in a workload space wakes that space's mailboxes like any of its objects. The slice
 * index keeps the Location of each destination and forgets it with the slice.
 */
import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import {
  type EventKeysDeps,
  keysForEvent,
  TRANSLATE_STEP,
  WHERE_STEP,
} from '../../../lib/relay/event-keys.ts'
import { createSliceIndex, destinationsOfSlice } from '../../../lib/relay/slice-index.ts'

const EDGE = 'edge.kcp.io'
const uid = (n: number) => `0a1b2c3d-1111-2222-3333-00000000000${n}`
const mb = (n: number) => `inv1-mb-${uid(n)}`

const obj = (kind: string, name: string, cluster: string, extra = {}): KubeObject => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind,
  metadata: { name, annotations: { 'kcp.io/cluster': cluster }, ...extra },
})

/** A slice in ws1 whose destinations are [location, syncTarget number] pairs in inv1. */
const slice = (name: string, dests: [string, number][]): KubeObject => ({
  ...obj('SinglePlacementSlice', name, 'ws1'),
  destinations: dests.map(([locationName, n]) => ({
    cluster: 'inv1',
    locationName,
    syncTargetName: `st${n}`,
    syncTargetUID: uid(n),
  })),
})

function deps(): EventKeysDeps {
  return {
    espwSpaceId: 'espw1',
    index: createSliceIndex(),
    listEdgePlacements: async () => [obj('EdgePlacement', 'p', 'ws1')],
  }
}

const translateKeys = (keys: { step: string; key: string }[]) =>
  keys.filter((k) => k.step === TRANSLATE_STEP).map((k) => k.key)

describe('Location changes wake the mailboxes reached through them', () => {
  it('reads the (Location, mailbox) pairs of a slice, skipping destinations without uid', () => {
    const s = slice('p', [
      ['guilder', 1],
      ['florin', 1],
    ])
    ;(s.destinations as unknown[]).push({
      cluster: 'inv1',
      locationName: 'florin',
      syncTargetName: 'st2',
    })
    expect(destinationsOfSlice(s)).toEqual([
      { cluster: 'inv1', locationName: 'florin', mailbox: mb(1) },
      { cluster: 'inv1', locationName: 'guilder', mailbox: mb(1) },
    ])
    ;(s.destinations as unknown[]).push('junk')
    expect(destinationsOfSlice(s)).toEqual([])
  })

  it('wakes where and the mailboxes of that Location only, and forgets them with the slice', async () => {
    const d = deps()
    const s = slice('p', [
      ['florin', 1],
      ['florin', 2],
      ['guilder', 3],
    ])
    await keysForEvent(
      { group: EDGE, resource: 'singleplacementslices' },
      { type: 'ADDED', object: s },
      d
    )
    const loc = (name: string, cluster = 'inv1') =>
      keysForEvent(
        { group: EDGE, resource: 'locations' },
        { type: 'MODIFIED', object: obj('Location', name, cluster) },
        d
      )
    const florin = await loc('florin')
    expect(florin.filter((k) => k.step === WHERE_STEP).map((k) => k.key)).toEqual(['ws1/p'])
    expect(translateKeys(florin)).toEqual([mb(1), mb(2)])
    expect(translateKeys(await loc('guilder'))).toEqual([mb(3)])
    expect(translateKeys(await loc('florin', 'inv2'))).toEqual([])
    expect(translateKeys(await loc('zloty'))).toEqual([])

    await keysForEvent(
      { group: EDGE, resource: 'singleplacementslices' },
      { type: 'MODIFIED', object: slice('p', [['guilder', 1]]) },
      d
    )
    expect(translateKeys(await loc('florin'))).toEqual([])
    expect(translateKeys(await loc('guilder'))).toEqual([mb(1)])
    await keysForEvent(
      { group: EDGE, resource: 'singleplacementslices' },
      { type: 'DELETED', object: slice('p', []) },
      d
    )
    expect(translateKeys(await loc('guilder'))).toEqual([])
  })

  it('unites the mailboxes of several slices reaching one Location', () => {
    const index = createSliceIndex()
    index.set('ws1', 'a', [mb(1)], {
      locations: [{ cluster: 'inv1', locationName: 'l', mailbox: mb(1) }],
    })
    index.set('ws2', 'b', [mb(2)], {
      locations: [{ cluster: 'inv1', locationName: 'l', mailbox: mb(2) }],
    })
    index.set('ws3', 'c', [mb(3)])
    expect(index.ofLocation('inv1', 'l')).toEqual([mb(1), mb(2)])
    index.remove('ws1', 'a')
    expect(index.ofLocation('inv1', 'l')).toEqual([mb(2)])
  })
})

describe('Customizer changes', () => {
  it('wake the mailboxes of their workload space', async () => {
    const d = deps()
    await keysForEvent(
      { group: EDGE, resource: 'singleplacementslices' },
      { type: 'ADDED', object: slice('p', [['florin', 1]]) },
      d
    )
    const cz = { ...obj('Customizer', 'cz', 'ws1'), replacements: [] }
    for (const type of ['ADDED', 'MODIFIED', 'DELETED']) {
      const keys = await keysForEvent(
        { group: EDGE, resource: 'customizers' },
        { type, object: cz },
        d
      )
      expect(keys).toEqual([{ step: TRANSLATE_STEP, key: mb(1) }])
    }
    const elsewhere = { ...obj('Customizer', 'cz', 'ws9'), replacements: [] }
    expect(
      await keysForEvent(
        { group: EDGE, resource: 'customizers' },
        { type: 'ADDED', object: elsewhere },
        d
      )
    ).toEqual([])
  })
})
