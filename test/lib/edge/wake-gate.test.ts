/**
 * The wake gate: at most its limit of calls run at once, the rest start in the order they asked
 * as running ones finish (also when one throws), and a limit below one is refused. With a
 * keep-alive (a Worker's) a waiter holds one timer of its own while it waits and none once its
 * turn came (functions/index.ts; what it prevents is shown through wrangler dev by
 * test/e2e/held-polls.test.ts, more held polls on one change than the gate lets run at once).
 */
import { describe, expect, it } from 'vitest'
import { createWakeGate, type GateTimers } from '../../../lib/edge/wake-gate.ts'

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
    const gate = createWakeGate({ limit: 2 })
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

  it('has a waiter hold one timer of its own until its turn, none after', async () => {
    const armed = new Map<number, { fn: () => void; ms: number }>()
    let next = 0
    const timers: GateTimers = {
      repeat: (fn, ms) => {
        armed.set(++next, { fn, ms })
        return next
      },
      clear: (h) => armed.delete(h as number),
    }
    const gate = createWakeGate({ limit: 1, keepAliveMs: 1000, timers })
    const first = deferred()
    const started: number[] = []
    const one = gate.run(async () => {
      started.push(1)
      await first.promise
    })
    const two = gate.run(async () => {
      started.push(2)
    })
    await tick()
    // the running call holds no timer; the waiter one, of the keep-alive's length
    expect([...armed.values()].map((t) => t.ms)).toEqual([1000])
    // its timer fires with the turn not come: it keeps waiting, the timer still armed
    for (const t of armed.values()) t.fn()
    await tick()
    expect(started).toEqual([1])
    expect(armed.size).toBe(1)
    first.resolve()
    await Promise.all([one, two])
    expect(started).toEqual([1, 2])
    expect(armed.size).toBe(0)
    expect([gate.running(), gate.waiting()]).toEqual([0, 0])
  })

  it('refuses a limit below one', () => {
    expect(() => createWakeGate({ limit: 0 })).toThrow(/at least 1/)
  })
})
