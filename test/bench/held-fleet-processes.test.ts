/**
 * The held fleet's processes joined as one fleet: counts summed, request records and per-target
 * answers concatenated in share order, failures merged by reason, the most open files of one
 * process kept.
 */
import { describe, expect, it } from 'vitest'
import { joinResults } from '../../bench/held-fleet-processes.ts'
import { emptyHeldFleetResult, type HeldFleetResult } from '../../bench/held-fleet-run.ts'

const part = (o: Partial<HeldFleetResult>): HeldFleetResult => ({
  ...emptyHeldFleetResult(),
  ...o,
})

describe('joinResults', () => {
  it('joins shares in order and sums their counts', () => {
    const joined = joinResults([
      part({
        holdStarts: [1, 2],
        answers: [[10], []],
        ended: 2,
        failed: 1,
        peakOpenFiles: 4010,
        failures: { 'hold 429': 1 },
      }),
      part({
        holdStarts: [3],
        beatStarts: [5],
        answers: [[11, 12]],
        answered: 2,
        peakOpenFiles: 3990,
        failures: { 'hold 429': 2, 'beat 503': 1 },
      }),
    ])
    expect(joined.holdStarts).toEqual([1, 2, 3])
    expect(joined.beatStarts).toEqual([5])
    expect(joined.answers).toEqual([[10], [], [11, 12]])
    expect(joined).toMatchObject({ ended: 2, answered: 2, failed: 1, peakOpenFiles: 4010 })
    expect(joined.failures).toEqual({ 'hold 429': 3, 'beat 503': 1 })
  })
})
