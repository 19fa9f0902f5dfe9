/**
 * The rollout phase's objects (bench/rollout-objects.ts): the rings take a quarter of the
 * Locations each, the Location names give back their index, and the Rollout the bench posts is
 * one the hub admits — four waves, one per ring, a gate that skips stale edges without a soak.
 */
import { describe, expect, it } from 'vitest'
import { targetName } from '../../bench/fan-out-objects.ts'
import {
  benchRollout,
  indexOfTarget,
  RING_LABEL,
  ringOf,
  ringPatch,
} from '../../bench/rollout-objects.ts'
import { RolloutSchema } from '../../lib/apis/edge-rollout.ts'

describe('rings', () => {
  it('puts a quarter of the Locations in each ring', () => {
    const counts = [0, 0, 0, 0]
    for (let i = 0; i < 1000; i++) counts[ringOf(i)]!++
    expect(counts).toEqual([250, 250, 250, 250])
  })

  it('reads the index back from the name targetName gave', () => {
    expect(indexOfTarget(targetName(42, 10_000))).toBe(42)
    expect(indexOfTarget('other-1')).toBeUndefined()
    expect(ringPatch(7)).toEqual({ metadata: { labels: { [RING_LABEL]: 'r3' } } })
  })
})

describe('benchRollout', () => {
  it('is a valid Rollout with one wave per ring and a gate that never waits', () => {
    const r = RolloutSchema.parse(benchRollout())
    expect(r.spec.waves.map((w) => w.locationSelectors?.[0]?.matchLabels?.[RING_LABEL])).toEqual([
      'r0',
      'r1',
      'r2',
      'r3',
    ])
    expect(r.spec.gate).toEqual({ soakSeconds: 0, staleEdges: 'Skip' })
  })
})
