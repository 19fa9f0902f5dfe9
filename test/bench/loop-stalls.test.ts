/**
 * bench/loop-stalls.ts: a loop blocked on purpose shows as a stall in the tick it fell in (a busy
 * machine only makes it longer), and `longest` is the longest of the ticks.
 */
import { describe, expect, it } from 'vitest'
import { watchLoopStalls } from '../../bench/loop-stalls.ts'

const block = (ms: number) => {
  const end = performance.now() + ms
  while (performance.now() < end) {
    // the stall under test
  }
}
const turn = () => new Promise((r) => setTimeout(r, 60))

describe('watchLoopStalls', () => {
  it('answers the stall of its tick, and keeps the longest', async () => {
    const s = watchLoopStalls()
    await turn()
    block(300)
    await turn()
    const first = s.tick()
    await turn()
    const second = s.tick()
    s.stop()
    expect(first).toBeGreaterThanOrEqual(250)
    expect(s.longest()).toBe(Math.max(first, second))
  })
})
