/**
 * Grouping a batch's slices by placement: each placement once per destination, even when a race
 * left one of its destinations in two of its slices with another placement's slice listed between
 * them; and a placement's slices merged for the incarnation (uid) that owns them.
 */
import { describe, expect, it } from 'vitest'
import type { SliceObject } from '../../../lib/apis/edge-objects.ts'
import { destinationId, groupSlices, mergeSlices } from '../../../lib/placement/slice-groups.ts'

const dest = (n: number) => ({
  cluster: 'inv1',
  locationName: `l${n}`,
  syncTargetName: `st${n}`,
  syncTargetUID: `u${n}`,
})
const slice = (name: string, placement: string, uid: string, ns: number[]): SliceObject =>
  inSpace('ws1', name, placement, uid, ns)
const inSpace = (
  space: string,
  ...[name, placement, uid, ns]: [string, string, string, number[]]
): SliceObject =>
  ({
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'SinglePlacementSlice',
    metadata: {
      name,
      annotations: { 'kcp.io/cluster': space },
      ownerReferences: [
        { apiVersion: 'edge.kcp.io/v1alpha1', kind: 'EdgePlacement', name: placement, uid },
      ],
    },
    destinations: ns.map(dest),
  }) as SliceObject

describe('groupSlices', () => {
  it('names each placement once per destination', () => {
    // In list (name) order: big's two slices both hold u1, with big-2's slice between them.
    const { groups, byDestination } = groupSlices([
      slice('big', 'big', 'a', [1, 2]),
      slice('big-2', 'big-2', 'b', [1]),
      slice('big-zq5x8', 'big', 'a', [1, 3]),
    ])
    expect(groups.map((g) => [g.placement, g.slices.length])).toEqual([
      ['big', 2],
      ['big-2', 1],
    ])
    const at = (n: number) =>
      (byDestination.get(destinationId('inv1', `u${n}`)) ?? []).map((g) => g.placement)
    expect(at(1)).toEqual(['big', 'big-2'])
    expect(at(3)).toEqual(['big'])
  })

  it('tells the destinations where the slices of two workload spaces meet', () => {
    const one = groupSlices([slice('a', 'a', 'x', [1, 2]), slice('b', 'b', 'y', [2, 3])])
    expect([...one.meeting]).toEqual([])
    const two = groupSlices([
      slice('a', 'a', 'x', [1, 2]),
      inSpace('ws2', 'b', 'b', 'y', [2, 3]),
      inSpace('ws2', 'c', 'c', 'z', [3]),
    ])
    expect([...two.meeting].sort()).toEqual([destinationId('inv1', 'u2')])
  })

  it("merges the slices one incarnation owns, leaving an earlier one's out", () => {
    const [first, stale, part] = [
      slice('p', 'p', 'now', [1]),
      slice('p-old1', 'p', 'before', [9]),
      slice('p-abcde', 'p', 'now', [2]),
    ]
    const merged = mergeSlices([first, stale, part] as SliceObject[], {
      metadata: { uid: 'now' },
    })
    expect(merged?.metadata.name).toBe('p')
    expect(merged?.destinations?.map((d) => d.syncTargetUID)).toEqual(['u1', 'u2'])
    expect(mergeSlices([stale] as SliceObject[], { metadata: { uid: 'now' } })).toBeUndefined()
  })
})
