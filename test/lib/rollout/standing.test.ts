/** Folding copies into an edge's standing and reading it for a gate (lib/rollout/standing.ts). */
import { describe, expect, it } from 'vitest'
import {
  addCopy,
  combine,
  MAX_MESSAGE,
  type Standing,
  standingAt,
} from '../../../lib/rollout/standing.ts'
import type { CopyStateName } from '../../../lib/summarize/copy-condition.ts'

const fold = (copies: [number, CopyStateName, string?][]) =>
  copies.reduce<Standing | undefined>(
    (s, [rev, state, reason]) => addCopy(s, rev, state, reason ? { reason, message: 'm' } : {}),
    undefined
  )

describe('addCopy', () => {
  it.each<[string, [number, CopyStateName, string?][], Standing]>([
    [
      'applied (running, not ready) counts pending',
      [
        [2, 'ready'],
        [2, 'applied'],
      ],
      { revision: 2, state: 'pending' },
    ],
    [
      'ready copies count ready',
      [
        [2, 'ready'],
        [2, 'ready'],
      ],
      { revision: 2, state: 'ready' },
    ],
    [
      'removing counts pending',
      [
        [2, 'ready'],
        [2, 'removing'],
      ],
      { revision: 2, state: 'pending' },
    ],
    [
      'the lowest revision',
      [
        [3, 'ready'],
        [2, 'ready'],
        [4, 'ready'],
      ],
      { revision: 2, state: 'ready' },
    ],
    [
      'stale beats pending',
      [
        [2, 'pending'],
        [2, 'stale'],
      ],
      { revision: 2, state: 'stale' },
    ],
    [
      'failed beats stale, the first failure kept',
      [
        [2, 'stale'],
        [2, 'failed', 'ErrImagePull'],
        [1, 'failed', 'CrashLoopBackOff'],
      ],
      { revision: 1, state: 'failed', reason: 'ErrImagePull', message: 'm' },
    ],
  ])('%s', (_, copies, want) => {
    expect(fold(copies)).toEqual(want)
  })

  it('bounds the message it keeps', () => {
    const s = addCopy(undefined, 1, 'failed', { reason: 'X', message: 'y'.repeat(5000) })
    expect(s.message?.length).toBe(MAX_MESSAGE)
    expect(addCopy(undefined, 1, 'failed')).toEqual({
      revision: 1,
      state: 'failed',
      reason: 'Failed',
    })
  })
})

describe('combine', () => {
  it('takes the lower revision and the worse state of two placements', () => {
    const a: Standing = { revision: 3, state: 'ready' }
    const b: Standing = { revision: 2, state: 'failed', reason: 'R' }
    expect(combine(a, b)).toEqual({ revision: 2, state: 'failed', reason: 'R' })
    expect(combine(b, a)).toEqual({ revision: 2, state: 'failed', reason: 'R' })
    expect(combine(undefined, a)).toEqual(a)
  })
})

describe('standingAt', () => {
  const at = (s: Standing | undefined, revision: number, inFlight = 5) =>
    standingAt(s, revision, inFlight).state
  it.each<[string, Standing | undefined, number, string]>([
    ['no standing: pending', undefined, 3, 'pending'],
    ['ready at the revision', { revision: 3, state: 'ready' }, 3, 'ready'],
    ['ready at a later one', { revision: 4, state: 'ready' }, 3, 'ready'],
    ['ready at an older one: pending', { revision: 2, state: 'ready' }, 3, 'pending'],
    ['failed at the revision', { revision: 3, state: 'failed', reason: 'R' }, 3, 'failed'],
    [
      'failed at an older one: pending',
      { revision: 2, state: 'failed', reason: 'R' },
      3,
      'pending',
    ],
    ['stale whatever the revision', { revision: 1, state: 'stale' }, 3, 'stale'],
    ['pending at the revision', { revision: 3, state: 'pending' }, 3, 'pending'],
    [
      'above the revision in flight: not this Rollout',
      { revision: 9, state: 'ready' },
      3,
      'pending',
    ],
  ])('%s', (_, s, revision, want) => {
    expect(at(s, revision)).toBe(want)
  })

  it('gives a failure its reason and message', () => {
    const s: Standing = { revision: 3, state: 'failed', reason: 'ErrImagePull', message: 'no' }
    expect(standingAt(s, 3, 3)).toEqual({ state: 'failed', reason: 'ErrImagePull', message: 'no' })
  })
})
