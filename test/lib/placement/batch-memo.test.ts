/**
 * The batch memo: one load per key, shared by every caller, a failed load kept for the batch, and
 * a load counted for the invocation but not for the key that asked first.
 */
import { describe, expect, it } from 'vitest'
import {
  chargeSubrequest,
  currentFrame,
  currentInvocation,
  measured,
  runInvocation,
} from '../../../lib/budget/frames.ts'
import { memo } from '../../../lib/placement/batch-memo.ts'

describe('memo', () => {
  it('loads each key once, sharing the promise with concurrent and later callers', async () => {
    const m = memo<string>()
    const loads: string[] = []
    const load = (key: string) => async () => {
      loads.push(key)
      return `value of ${key}`
    }
    const [a1, a2] = await Promise.all([m('a', load('a')), m('a', load('a'))])
    expect([a1, a2, await m('a', load('a')), await m('b', load('b'))]).toEqual([
      'value of a',
      'value of a',
      'value of a',
      'value of b',
    ])
    expect(loads).toEqual(['a', 'b'])
  })

  it('keeps a failed load rejected for its key', async () => {
    const m = memo<number>()
    let calls = 0
    const failing = async () => {
      calls++
      throw new Error('read failed')
    }
    await expect(m('x', failing)).rejects.toThrow('read failed')
    await expect(m('x', async () => 1)).rejects.toThrow('read failed')
    expect(await m('y', async () => 2)).toBe(2)
    expect(calls).toBe(1)
  })

  it('charges a load to the invocation, not to the measured key that asked first', async () => {
    const m = memo<number>()
    const listAll = async () => {
      for (let i = 0; i < 5; i++) chargeSubrequest(currentFrame()!, 'Query')
      return 5
    }
    await runInvocation('hook', { subrequests: 100 }, async () => {
      const first = await measured(() => m('space', listAll))
      const second = await measured(() => m('space', listAll))
      expect([first.value, first.used, second.used]).toEqual([5, 0, 0])
      expect(currentInvocation()!.subrequests).toBe(5)
    })
  })
})
