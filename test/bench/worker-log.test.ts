import { describe, expect, it } from 'vitest'
import { countRuns } from '../../bench/worker-log.ts'

const line = (o: Record<string, unknown>) => `[wrangler:info] ${JSON.stringify(o)}`

describe('countRuns', () => {
  it("counts each step's runs, those that changed nothing, failed, and the resync's apart", () => {
    const text = [
      'text wrangler prints before JSON',
      line({
        msg: 'reconciled',
        step: 'translate',
        outcome: 'placements 1: added 3, changed 0, removed 0',
        durationMs: 10,
      }),
      line({
        msg: 'reconciled',
        step: 'translate',
        outcome: 'placements 1: unchanged',
        durationMs: 4,
        via: 'resync',
      }),
      line({
        msg: 'reconciled',
        step: 'translate',
        outcome: 'placements 1: unchanged',
        durationMs: 6,
      }),
      line({ msg: 'reconcile failed', step: 'translate' }),
      line({
        msg: 'reconciled',
        step: 'mailbox',
        outcome: 'unchanged',
        durationMs: 2,
        via: 'resync',
      }),
      line({ msg: 'resync page', controller: 'mailbox' }),
      '{not json',
    ].join('\n')
    const runs = countRuns(text)
    expect(runs.translate).toMatchObject({ runs: 4, unchanged: 2, failed: 1, resync: 1 })
    expect(runs.translate?.outcomes).toEqual({
      'placements N: added N, changed N, removed N': 1,
      'placements N: unchanged': 2,
    })
    expect(runs.mailbox).toMatchObject({ runs: 1, unchanged: 1, failed: 0, resync: 1 })
  })
})
