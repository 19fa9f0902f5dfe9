/** The stable order of a wave's edges under maxEdges (lib/rollout/edge-order.ts). */
import { describe, expect, it } from 'vitest'
import { belowCut, edgeRank, raiseCut } from '../../../lib/rollout/edge-order.ts'

const uids = Array.from({ length: 20 }, (_, i) => `uid-${i}`)
const promoted = (revision: number, cut: number) => uids.filter((u) => belowCut(revision, u, cut))

describe('edge order', () => {
  it('ranks in [0, 1), differently per revision', () => {
    for (const u of uids) {
      expect(edgeRank(2, u)).toBeGreaterThanOrEqual(0)
      expect(edgeRank(2, u)).toBeLessThan(1)
    }
    const first = (r: number) => [...uids].sort((a, b) => edgeRank(r, a) - edgeRank(r, b))[0]
    expect(new Set([2, 3, 4, 5, 6].map(first)).size).toBeGreaterThan(1)
  })

  it('raises the cut by exactly the batch, keeping those already promoted', () => {
    const c1 = raiseCut(7, uids, 0, 5)
    const p1 = promoted(7, c1)
    expect(p1).toHaveLength(5)
    const c2 = raiseCut(7, uids, c1, 5)
    const p2 = promoted(7, c2)
    expect(p2).toHaveLength(10)
    expect(p2).toEqual(expect.arrayContaining(p1))
    expect(raiseCut(7, uids, c2, 50)).toBe(1)
    expect(promoted(7, 1)).toHaveLength(20)
  })

  it('leaves the cut where it is for an empty batch, and promotes all of an empty wave', () => {
    expect(raiseCut(7, uids, 0.25, 0)).toBe(0.25)
    expect(raiseCut(7, [], 0, 3)).toBe(1)
  })
})
