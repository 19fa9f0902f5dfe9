/**
 * Conditions as the reconcile steps write them: held only at the same status, reason, message and
 * generation; lastTransitionTime kept while the status stays; the condition moves to the end.
 */
import { describe, expect, it } from 'vitest'
import { conditionHolds, withCondition } from '../../../lib/kube/conditions.ts'

const T0 = '2030-01-01T00:00:00Z'
const T1 = '2030-01-01T00:05:00Z'
const other = { type: 'Other', status: 'True' }

describe('withCondition / conditionHolds', () => {
  it('keeps lastTransitionTime until the status flips, and says when nothing changed', () => {
    const ready = { status: 'False' as const, reason: 'Propagating', message: '1 of 2' }
    const first = withCondition([other], 'Ready', ready, { generation: 3, now: T0 })
    expect(first).toEqual([
      other,
      { type: 'Ready', ...ready, observedGeneration: 3, lastTransitionTime: T0 },
    ])
    expect(conditionHolds(first, 'Ready', ready, 3)).toBe(true)
    expect(conditionHolds(first, 'Ready', ready, 4)).toBe(false)
    const moved = { ...ready, reason: 'Progressing' }
    expect(conditionHolds(first, 'Ready', moved, 3)).toBe(false)
    expect(
      withCondition(first, 'Ready', moved, { generation: 3, now: T1 })[1]?.lastTransitionTime
    ).toBe(T0)
    const flipped = withCondition(
      first,
      'Ready',
      { ...ready, status: 'True' },
      { generation: 3, now: T1 }
    )
    expect(flipped[1]?.lastTransitionTime).toBe(T1)
    expect(conditionHolds([], 'Ready', ready, 3)).toBe(false)
  })
})
