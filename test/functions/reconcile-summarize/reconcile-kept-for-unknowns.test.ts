/**
 * The part `keptForUnknowns` (reconcile-kept-for-unknowns.ts): what a run leaves in place for a
 * placement of the space that cannot be read is counted in the outcome and logged once.
 */
import { describe, expect, it } from 'vitest'
import { keptForUnknownsPart } from '../../../functions/reconcile-summarize/reconcile-kept-for-unknowns.ts'
import { createLogger } from '../../../lib/log.ts'
import { configMap, dest, noUnknowns, runInput } from './part-fixtures.ts'

const counted = configMap('counted', { annotations: { 'kubestellar.io/executing-count': '1' } })
const finalized = configMap('finalized', { finalizers: ['edge.kcp.io/edge-removal'] })

const cases = [
  {
    name: 'nothing unknown: nothing kept, nothing logged',
    keepCounts: false,
    hold: false,
    want: [],
  },
  {
    name: 'an EdgePlacement that does not decode: the count is kept',
    keepCounts: true,
    hold: false,
    want: ['kept 1 (unknown placement)'],
  },
  {
    name: 'a slice that does not decode too: the finalizer is kept as well',
    keepCounts: true,
    hold: true,
    want: ['kept 2 (unknown placement)'],
  },
]

describe('keptForUnknowns', () => {
  it.each(cases)('$name', async (c) => {
    const lines: string[] = []
    const part = keptForUnknownsPart({ log: createLogger({ sink: (l) => lines.push(l) }) })
    const input = await runInput(
      { objects: [], destinations: [dest('e1')], held: {} },
      {
        extra: [counted, finalized],
        unknown: noUnknowns({ keepCounts: c.keepCounts, holdLifting: c.hold, keys: ['ws/bad'] }),
      }
    )
    expect(await part.run(input)).toEqual({ done: c.want })
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(
      c.want.length > 0 ? ['removals held: a placement of the space does not decode'] : []
    )
  })
})
