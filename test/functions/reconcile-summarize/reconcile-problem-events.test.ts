/**
 * The part `problemEvents` (reconcile-problem-events.ts) over plain inputs: which Events it asks
 * for from the placement's failed pairs, and what it reports done and when it asks to run again.
 */
import { describe, expect, it } from 'vitest'
import type { EventsDone } from '../../../functions/reconcile-summarize/events.ts'
import { problemEventsPart } from '../../../functions/reconcile-summarize/reconcile-problem-events.ts'
import type { ProblemEvent } from '../../../lib/summarize/edge-problems.ts'
import { configMap, dest, recorder, runInput, type Table } from './part-fixtures.ts'

const cfg = configMap('cfg')
const failing: Table = {
  objects: [cfg],
  destinations: [dest('e1'), dest('e2'), dest('e3')],
  held: {
    cfg: {
      e1: { problem: { reason: 'ApplyFailed', message: 'denied' } },
      e2: { problem: { reason: 'ApplyFailed', message: 'denied' } },
      e3: { status: {} },
    },
  },
}
const healthy: Table = { ...failing, held: { cfg: { e1: { status: {} } } } }

type Case = {
  name: string
  table: Table
  mine?: boolean
  answer: EventsDone
  want: { done: string[]; requeueAfterMs?: number; events?: [string, string, string][] }
}

const cases: Case[] = [
  {
    name: 'no placement of its own: nothing recorded',
    table: failing,
    mine: false,
    answer: { written: 0, swept: 0 },
    want: { done: [] },
  },
  {
    name: 'one Event on the placement per reason, then one per object and reason',
    table: failing,
    answer: { written: 2, swept: 0 },
    want: {
      done: ['events 2'],
      events: [
        ['p', 'ApplyFailed', '1 object reports ApplyFailed at 2 of 3 destinations'],
        ['cfg', 'ApplyFailed', '2 of 3 destinations of EdgePlacement p report ApplyFailed: e1, e2'],
      ],
    },
  },
  {
    name: 'no problem: no Event wanted; expired ones swept',
    table: healthy,
    answer: { written: 0, swept: 2 },
    want: { done: ['events expired 2'], events: [] },
  },
  {
    name: 'a change the pace holds back asks to run again',
    table: failing,
    answer: { written: 0, swept: 0, retryInMs: 42_000 },
    want: {
      done: [],
      requeueAfterMs: 42_000,
      events: [
        ['p', 'ApplyFailed', ''],
        ['cfg', 'ApplyFailed', ''],
      ],
    },
  },
]

describe('problemEvents', () => {
  it.each(cases)('$name', async (c) => {
    const records = recorder(async (_w: { wants: readonly ProblemEvent[] }) => c.answer)
    const part = problemEventsPart({ record: records.fn })
    const r = await part.run(await runInput(c.table, { mine: c.mine ?? true }))
    const { events, ...want } = c.want
    expect(r).toEqual(want)
    if (!events) return expect(records.calls).toEqual([])
    const [w] = records.calls[0]!
    expect(w.wants.map((e) => [e.involved.name, e.reason, e.message])).toEqual(
      events.map(([name, reason, start]) => [name, reason, expect.stringContaining(start)])
    )
  })
})
