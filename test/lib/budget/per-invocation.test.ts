import { describe, expect, it } from 'vitest'
import { runInvocation } from '../../../lib/budget/frames.ts'
import { perInvocation } from '../../../lib/budget/per-invocation.ts'

const invoke = <T>(fn: () => Promise<T>) => runInvocation('test', { mode: 'strict' }, fn)

describe('perInvocation', () => {
  it('makes one state per invocation, none outside, never shared between two', async () => {
    let made = 0
    const stateOf = perInvocation(() => ({ n: ++made }))
    expect(stateOf()).toBeUndefined()
    const [a, b] = await Promise.all([
      invoke(async () => {
        const first = stateOf()
        await new Promise((r) => setTimeout(r, 5))
        expect(stateOf()).toBe(first)
        return first
      }),
      invoke(async () => stateOf()),
    ])
    expect(a).not.toBe(b)
    expect(made).toBe(2)
  })
})
