/**
 * Which destinations a Rollout's status change moves (lib/rollout/moved-destinations.ts): a
 * promotion moves the promoted wave's edges below the new cut and no other, a rollback the waves
 * it returns, an adoption every edge; an edge whose labels are unknown always counts as moved.
 */
import { describe, expect, it } from 'vitest'
import type { RolloutSpec, RolloutStatus } from '../../../lib/apis/edge-rollout.ts'
import { belowCut, raiseCut } from '../../../lib/rollout/edge-order.ts'
import { movedDestinations } from '../../../lib/rollout/moved-destinations.ts'

const spec: RolloutSpec = {
  waves: [
    { name: 'canary', locationSelectors: [{ matchLabels: { ring: 'canary' } }] },
    { name: 'early', locationSelectors: [{ matchLabels: { ring: 'early' } }] },
    { name: 'rest' },
  ],
}
const dest = (ring: string, n: number) => ({
  mailbox: `mb-${ring}-${n}`,
  syncTargetUid: `uid-${ring}-${n}`,
  labels: { ring },
})
const fleet = ['canary', 'early', 'prod'].flatMap((ring) =>
  Array.from({ length: 10 }, (_, n) => dest(ring, n))
)
const ofRing = (ring: string) => fleet.filter((d) => d.labels.ring === ring).map((d) => d.mailbox)

const counts = { edges: 10, ready: 10, failed: 0, stale: 0, pending: 0 }
const completed: RolloutStatus = {
  revision: 1,
  completedRevision: 1,
  waves: [
    { name: 'canary', revision: 1, cut: 1, ...counts },
    { name: 'early', revision: 1, cut: 1, ...counts },
    { name: 'rest', revision: 1, cut: 1, ...counts },
  ],
}
const withWave = (s: RolloutStatus, i: number, w: Record<string, unknown>): RolloutStatus => ({
  ...s,
  waves: (s.waves ?? []).map((x, k) => (k === i ? { ...x, ...w } : x)),
})

describe('moved destinations', () => {
  it("move only the promoted wave's edges", () => {
    const cut = { ...completed, revision: 2 }
    const canary = withWave(cut, 0, { revision: 2, from: 1, cut: 1 })
    expect(movedDestinations(spec, cut, canary, fleet)).toEqual(ofRing('canary').sort())
    const early = withWave(canary, 1, { revision: 2, from: 1, cut: 1 })
    expect(movedDestinations(spec, canary, early, fleet)).toEqual(ofRing('early').sort())
  })

  it('move, under maxEdges, only the edges the raised cut promotes', () => {
    const uids = fleet.filter((d) => d.labels.ring === 'prod').map((d) => d.syncTargetUid)
    const first = raiseCut(2, uids, 0, 3)
    const second = raiseCut(2, uids, first, 3)
    const at = (cut: number) =>
      withWave({ ...completed, revision: 2 }, 2, { revision: 2, from: 1, cut })
    const newly = fleet
      .filter((d) => d.labels.ring === 'prod')
      .filter((d) => belowCut(2, d.syncTargetUid, second) && !belowCut(2, d.syncTargetUid, first))
      .map((d) => d.mailbox)
      .sort()
    expect(newly).toHaveLength(3)
    expect(movedDestinations(spec, at(first), at(second), fleet)).toEqual(newly)
  })

  it('move the waves a rollback returns, and every edge at adoption', () => {
    const promoted = withWave(
      withWave({ ...completed, revision: 2 }, 0, { revision: 2, from: 1 }),
      1,
      {
        revision: 2,
        from: 1,
      }
    )
    expect(movedDestinations(spec, promoted, completed, fleet)).toEqual(
      [...ofRing('canary'), ...ofRing('early')].sort()
    )
    expect(movedDestinations(spec, undefined, completed, fleet)).toEqual(
      fleet.map((d) => d.mailbox).sort()
    )
  })

  it('count a destination whose labels are unknown as moved, and a status that moves nothing as none', () => {
    const unknown = { mailbox: 'mb-unknown', syncTargetUid: 'uid-unknown', labels: null }
    expect(movedDestinations(spec, completed, completed, [...fleet, unknown])).toEqual([
      'mb-unknown',
    ])
  })
})
