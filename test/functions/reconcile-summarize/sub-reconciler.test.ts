/**
 * The loop over the summarize step's parts (sub-reconciler.ts): parts run one after the other in
 * list order, every `done` is kept in that order, and the soonest requeue any part asked for wins.
 */
import { describe, expect, it } from 'vitest'
import {
  type PartResult,
  runInOrder,
  type SubReconciler,
} from '../../../functions/reconcile-summarize/sub-reconciler.ts'

const part = (name: string, r: PartResult, log: string[]): SubReconciler<number> => ({
  name,
  run: async (n) => {
    log.push(`${name}:${n}`)
    return r
  },
})

const cases: { name: string; results: PartResult[]; want: PartResult }[] = [
  { name: 'nothing done, no requeue', results: [{ done: [] }, { done: [] }], want: { done: [] } },
  {
    name: 'every done, in the parts’ order',
    results: [{ done: ['a', 'b'] }, { done: [] }, { done: ['c'] }],
    want: { done: ['a', 'b', 'c'] },
  },
  {
    name: 'the soonest requeue',
    results: [
      { done: [], requeueAfterMs: 30_000 },
      { done: ['x'] },
      { done: [], requeueAfterMs: 5_000 },
    ],
    want: { done: ['x'], requeueAfterMs: 5_000 },
  },
  {
    name: 'a requeue of 0 is kept',
    results: [
      { done: [], requeueAfterMs: 0 },
      { done: [], requeueAfterMs: 60_000 },
    ],
    want: { done: [], requeueAfterMs: 0 },
  },
]

describe('runInOrder', () => {
  it.each(cases)('$name', async ({ results, want }) => {
    const log: string[] = []
    const parts = results.map((r, i) => part(`p${i}`, r, log))
    expect(await runInOrder(parts, 7)).toEqual(want)
    expect(log).toEqual(results.map((_, i) => `p${i}:7`))
  })

  it('stops at a part that throws: the later ones do not run', async () => {
    const log: string[] = []
    const failing: SubReconciler<number> = {
      name: 'fails',
      run: async () => {
        throw new Error('boom')
      },
    }
    const parts = [part('first', { done: [] }, log), failing, part('last', { done: [] }, log)]
    await expect(runInOrder(parts, 1)).rejects.toThrow('boom')
    expect(log).toEqual(['first:1'])
  })
})
