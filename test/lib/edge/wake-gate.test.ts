/**
 * The wake gate: at most its limit of calls run at once, the rest start in the order they asked
 * as running ones finish (also when one throws), and a limit below one is refused.
 */
import { describe, expect, it } from 'vitest'
import { createWakeGate } from '../../../lib/edge/wake-gate.ts'

const deferred = () => {
  let resolve = () => {}
  let reject = (_e: Error) => {}
  const promise = new Promise<void>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}
const tick = () => new Promise((r) => setTimeout(r, 0))

describe('wake gate', () => {
  it('runs at most its limit at once, the rest in the order asked', async () => {
    const gate = createWakeGate(2)
    const started: number[] = []
    const calls = [0, 1, 2, 3].map(() => deferred())
    const runs = calls.map((d, i) =>
      gate.run(async () => {
        started.push(i)
        await d.promise
        return i
      })
    )
    await tick()
    expect(started).toEqual([0, 1])
    expect([gate.running(), gate.waiting()]).toEqual([2, 2])
    calls[1]!.resolve()
    await tick()
    expect(started).toEqual([0, 1, 2])
    calls[0]!.reject(new Error('boom'))
    await expect(runs[0]).rejects.toThrow('boom')
    await tick()
    expect(started).toEqual([0, 1, 2, 3])
    calls[2]!.resolve()
    calls[3]!.resolve()
    expect(await Promise.all(runs.slice(1))).toEqual([1, 2, 3])
    expect([gate.running(), gate.waiting()]).toEqual([0, 0])
  })

  it('refuses a limit below one', () => {
    expect(() => createWakeGate(0)).toThrow(/at least 1/)
  })
})
