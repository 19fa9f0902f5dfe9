/**
 * The destinations of a slice as customization sees them: one per SyncTarget, with the first of
 * its Locations by name, incomplete entries skipped, sorted by label; and Event names that tell
 * problems of one reason apart by their subject while keeping the old names without one.
 */
import { describe, expect, it } from 'vitest'
import {
  destinationsOf,
  label,
  locationFor,
} from '../../../functions/reconcile-translate/destinations.ts'
import { eventName } from '../../../functions/reconcile-translate/names.ts'
import type { SliceObject } from '../../../lib/apis/edge-objects.ts'

const dest = (cluster: string, locationName: string, st: string) => ({
  cluster,
  locationName,
  syncTargetName: st,
  syncTargetUID: `uid-${st}`,
})

const slice: SliceObject = {
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'SinglePlacementSlice',
  metadata: { name: 'ep' },
  destinations: [
    dest('inv', 'west', 'b'),
    dest('inv', 'east', 'b'),
    dest('inv', 'a-loc', 'a'),
    { cluster: 'inv', locationName: 'no-uid', syncTargetName: 'c' },
  ],
}

describe('destinationsOf', () => {
  it('gives one destination per SyncTarget, the first Location by name, sorted', () => {
    expect(destinationsOf(slice).map(label)).toEqual([
      'a (Location inv:a-loc)',
      'b (Location inv:east)',
    ])
    expect(locationFor(slice, 'inv', 'uid-b')).toEqual({ cluster: 'inv', name: 'east' })
    expect(locationFor(slice, 'inv', 'uid-c')).toBeUndefined()
    expect(locationFor(slice, 'other', 'uid-b')).toBeUndefined()
  })

  it('is empty for a slice without destinations', () => {
    expect(destinationsOf({ ...slice, destinations: undefined })).toEqual([])
  })
})

describe('eventName', () => {
  const object = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'app', name: 'cm' }
  it('adds the subject to the digest only when there is one', () => {
    const plain = eventName('ep', { reason: 'R', object })
    expect(eventName('ep', { reason: 'R', object })).toBe(plain)
    const a = eventName('ep', { reason: 'R', subject: 'a', object })
    const b = eventName('ep', { reason: 'R', subject: 'b', object })
    expect(new Set([plain, a, b]).size).toBe(3)
    expect(a).toMatch(/^ep\.[0-9a-f]{8}$/)
  })
})
