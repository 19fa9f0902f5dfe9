/** A wave's gate (lib/rollout/gate.ts), table-driven: pass, wait or fail, and why. */
import { describe, expect, it } from 'vitest'
import type { RolloutGate } from '../../../lib/apis/edge-rollout.ts'
import { judgeWave, type WaveTally } from '../../../lib/rollout/gate.ts'

const t = (ready: number, failed = 0, stale = 0, pending = 0): WaveTally => ({
  edges: ready + failed + stale + pending,
  ready,
  failed,
  stale,
  pending,
})
const PROMOTED = 1_000_000
const SOON = PROMOTED + 1_000
const LATE = PROMOTED + 601_000

const rows: [string, RolloutGate | undefined, WaveTally, number, string, string?][] = [
  ['every edge ready passes', undefined, t(3), SOON, 'pass'],
  ['an empty wave passes', undefined, t(0), SOON, 'pass'],
  ['one pending waits (defaults need every edge)', undefined, t(2, 0, 0, 1), SOON, 'wait'],
  [
    'one failed fails at once (maxFailedEdges 0)',
    undefined,
    t(2, 1),
    SOON,
    'fail',
    'TooManyFailures',
  ],
  ['pending past the deadline fails', undefined, t(2, 0, 0, 1), LATE, 'fail', 'DeadlineExceeded'],
  ['a stale edge is waited for by default', undefined, t(2, 0, 1), SOON, 'wait'],
  [
    'a stale edge waited for fails at the deadline',
    undefined,
    t(2, 0, 1),
    LATE,
    'fail',
    'DeadlineExceeded',
  ],
  ['staleEdges Skip leaves it out', { staleEdges: 'Skip' }, t(2, 0, 1), SOON, 'pass'],
  [
    'staleEdges Fail counts it failed',
    { staleEdges: 'Fail' },
    t(2, 0, 1),
    SOON,
    'fail',
    'TooManyFailures',
  ],
  ['readyPercent 50 of 4 needs 2', { readyPercent: 50 }, t(2, 0, 0, 2), SOON, 'pass'],
  ['readyPercent 50 of 3 needs 2', { readyPercent: 50 }, t(1, 0, 0, 2), SOON, 'wait'],
  ['one failure tolerated, but not every edge ready', { maxFailedEdges: 1 }, t(3, 1), SOON, 'wait'],
  [
    'maxFailedEdges 1 with 1 failed and the rest ready passes at 75%',
    { maxFailedEdges: 1, readyPercent: 75 },
    t(3, 1),
    SOON,
    'pass',
  ],
  [
    'a percentage counts only after minEdgesTried',
    { maxFailedEdges: '10%', minEdgesTried: 3 },
    t(0, 1, 0, 9),
    SOON,
    'wait',
  ],
  [
    'a percentage past minEdgesTried fails',
    { maxFailedEdges: '10%', minEdgesTried: 3 },
    t(1, 2, 0, 7),
    SOON,
    'fail',
    'TooManyFailures',
  ],
  ['10% of 10 tolerates one', { maxFailedEdges: '10%', readyPercent: 90 }, t(9, 1), SOON, 'pass'],
]

describe('judgeWave', () => {
  it.each(rows)('%s', (...row) => {
    const [, gate, tally, now, kind, reason] = row
    const v = judgeWave(gate, tally, PROMOTED, now)
    expect(v.kind).toBe(kind)
    if (reason) expect(v).toMatchObject({ reason })
  })

  it('says what it waits for and why it failed', () => {
    expect(judgeWave(undefined, t(1, 0, 1, 1), PROMOTED, SOON)).toEqual({
      kind: 'wait',
      message: '1 of 3 needed ready (1 pending, 1 stale)',
    })
    expect(judgeWave({ maxFailedEdges: 1 }, t(1, 2), PROMOTED, SOON)).toEqual({
      kind: 'fail',
      reason: 'TooManyFailures',
      message: '2 edges failed of 3, more than the 1 maxFailedEdges allows',
    })
  })
})
