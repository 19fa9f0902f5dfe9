/**
 * The part `clearDepartures` (reconcile-clear-departures.ts): the space's departures record is
 * deleted only once it exists, lists no mailbox that still exists, and nothing waits or is held.
 */
import { describe, expect, it } from 'vitest'
import { clearDeparturesPart } from '../../../functions/reconcile-summarize/reconcile-clear-departures.ts'
import { configMap, dest, noRemovals, noUnknowns, recorder, runInput } from './part-fixtures.ts'

const leaving = configMap('leaving', { finalizers: ['edge.kcp.io/edge-removal'] })

const cases = [
  { name: 'no record: nothing to clear', recorded: false, want: false },
  { name: 'an empty record, nothing waiting: cleared', recorded: true, want: true },
  {
    name: 'the record still lists a mailbox: kept',
    recorded: true,
    departed: ['mb-1'],
    want: false,
  },
  { name: 'an object still waits for an edge: kept', recorded: true, holds: true, want: false },
  {
    name: 'a finalizer held for an unknown placement: kept',
    recorded: true,
    hold: true,
    want: false,
  },
]

describe('clearDepartures', () => {
  it.each(cases)('$name', async (c) => {
    const clears = recorder(async (_spaceId: string) => {})
    const part = clearDeparturesPart({ clear: clears.fn })
    const input = await runInput(
      { objects: [], destinations: [dest('e1')], held: {} },
      {
        extra: [leaving],
        removals: noRemovals({
          recorded: c.recorded,
          departed: c.departed ?? [],
          holds: () => c.holds ?? false,
        }),
        unknown: noUnknowns({ holdLifting: c.hold ?? false }),
      }
    )
    expect(await part.run(input)).toEqual({ done: [] })
    expect(clears.calls).toEqual(c.want ? [[input.spaceId]] : [])
  })
})
