/**
 * The Ready condition's reasons in their order of precedence, from the placement's status and its
 * summary counts.
 */
import { describe, expect, it } from 'vitest'
import type { PlacementSummary } from '../../../lib/apis/edge-summary.ts'
import { type ReadyInput, readyCondition } from '../../../lib/summarize/ready-condition.ts'

const totals = { pending: 0, applied: 0, ready: 6, failed: 0, removing: 0, stale: 0 }
const summary = (over: Partial<PlacementSummary> = {}, t: Partial<typeof totals> = {}) =>
  ({
    destinations: 3,
    reportingDestinations: 3,
    staleDestinations: 0,
    objectCount: 2,
    totals: { ...totals, ...t },
    objects: [],
    brokenCount: 0,
    broken: [],
    ...over,
  }) as PlacementSummary

const base: ReadyInput = {
  generation: 4,
  specGeneration: 4,
  matchingLocationCount: 3,
  translated: { status: 'True', reason: 'Projected', observedGeneration: 4 },
  summary: summary(),
  failedByReason: new Map(),
  outdated: 0,
  upsync: false,
  staleAfterMs: 180_000,
}
const ready = (over: Partial<ReadyInput>) => readyCondition({ ...base, ...over })

describe('readyCondition', () => {
  it('is True when every object is ready at every destination', () => {
    expect(ready({})).toEqual({
      status: 'True',
      reason: 'AllReady',
      message: '2 objects ready at 3 destinations',
    })
  })

  it('waits for the where step, then needs destinations, then the translate step', () => {
    expect(ready({ specGeneration: 3 })).toMatchObject({ status: 'False', reason: 'Resolving' })
    expect(ready({ summary: summary({ destinations: 0 }), matchingLocationCount: 0 })).toEqual({
      status: 'False',
      reason: 'NoDestinations',
      message: 'no Location matches the locationSelectors',
    })
    expect(ready({ summary: summary({ destinations: 0 }) }).message).toBe(
      'the 3 matching Locations select no SyncTarget'
    )
    expect(ready({ translated: undefined }).reason).toBe('Translating')
    expect(ready({ translated: { ...base.translated, observedGeneration: 3 } }).reason).toBe(
      'Translating'
    )
  })

  it("takes a False Translated condition's reason and message", () => {
    const translated = {
      status: 'False',
      reason: 'InvalidSelector',
      message: 'bad key',
      observedGeneration: 4,
    }
    expect(ready({ translated })).toEqual({
      status: 'False',
      reason: 'InvalidSelector',
      message: 'not translated as asked: bad key',
    })
  })

  it('puts edge problems before silent edges, and those before copies in motion', () => {
    const failing = {
      summary: summary({ staleDestinations: 1 }, { ready: 2, failed: 3, pending: 1 }),
      failedByReason: new Map([
        ['ApplyFailed', 1],
        ['ForeignObject', 2],
      ]),
    }
    expect(ready(failing)).toEqual({
      status: 'False',
      reason: 'EdgeProblems',
      message:
        '3 of 6 copies failed at their edges (ForeignObject 2, ApplyFailed 1); see status.summary.broken and the Events',
    })
    expect(ready({ summary: summary({ staleDestinations: 1 }, { stale: 2, ready: 4 }) })).toEqual({
      status: 'False',
      reason: 'StaleDestinations',
      message: '1 of 3 destinations sent no heartbeat within 3m',
    })
    // The threshold the hub is configured with, not the default.
    const stale = summary({ staleDestinations: 2 }, { stale: 4, ready: 2 })
    expect(ready({ summary: stale, staleAfterMs: 30_000 }).message).toBe(
      '2 of 3 destinations sent no heartbeat within 30s'
    )
  })

  it('counts pending, outdated and removing copies as Propagating, applied ones as Progressing', () => {
    expect(
      ready({ summary: summary({}, { ready: 4, pending: 1, applied: 1, removing: 2 }) })
    ).toEqual({
      status: 'False',
      reason: 'Propagating',
      message:
        '1 of 6 copies not yet applied at the current version; 2 copies still leaving their destinations',
    })
    expect(ready({ outdated: 2 }).message).toBe(
      '2 of 6 copies not yet applied at the current version'
    )
    expect(ready({ summary: summary({}, { ready: 5, applied: 1 }) })).toEqual({
      status: 'False',
      reason: 'Progressing',
      message: '1 of 6 copies applied but not ready yet',
    })
  })

  it('calls a placement selecting nothing NothingSelected, unless it upsyncs', () => {
    const empty = summary({ objectCount: 0 }, { ready: 0 })
    expect(ready({ summary: empty }).reason).toBe('NothingSelected')
    expect(ready({ summary: empty, upsync: true })).toEqual({
      status: 'True',
      reason: 'AllReady',
      message: 'no object to send; 3 destinations reporting',
    })
  })
})
