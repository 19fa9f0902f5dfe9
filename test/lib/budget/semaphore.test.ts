/**
 * The semaphore admits `size` holders, hands freed slots to waiters in arrival order, and ignores
 * a release called twice.
 */
import { describe, expect, it } from 'vitest'
import { createSemaphore } from '../../../lib/budget/semaphore.ts'

describe('createSemaphore', () => {
  it('admits at most size holders and serves waiters in order', async () => {
    const sem = createSemaphore(2)
    const a = await sem.acquire()
    const b = await sem.acquire()
    const order: string[] = []
    const c = sem.acquire().then((r) => {
      order.push('c')
      return r
    })
    const d = sem.acquire().then((r) => {
      order.push('d')
      return r
    })
    await Promise.resolve()
    expect([sem.held(), sem.waiting(), order]).toEqual([2, 2, []])
    a()
    a()
    const releaseC = await c
    expect([sem.held(), sem.waiting(), order]).toEqual([2, 1, ['c']])
    b()
    const releaseD = await d
    expect(order).toEqual(['c', 'd'])
    releaseC()
    releaseD()
    expect([sem.held(), sem.waiting()]).toEqual([0, 0])
  })
})
