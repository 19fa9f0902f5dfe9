/**
 * A manual clock for the relay tests: `setTimer` queues callbacks, `advance(ms)` runs the ones that
 * fall due in time order and lets the promise jobs they start settle, so tests step through delays
 * and backoffs without real waiting.
 */
import type { SetTimer } from '../../../lib/relay/batcher.ts'

export type FakeClock = {
  setTimer: SetTimer
  advance(ms: number): Promise<void>
  now(): number
  pendingTimers(): number[]
}

/** Lets queued promise jobs (and the ones they queue) run. */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve))

export function createFakeClock(): FakeClock {
  let now = 0
  let seq = 0
  const timers: { at: number; id: number; fn: () => void }[] = []
  return {
    setTimer(fn, ms) {
      const id = ++seq
      timers.push({ at: now + Math.max(0, ms), id, fn })
      return () => {
        const i = timers.findIndex((t) => t.id === id)
        if (i >= 0) timers.splice(i, 1)
      }
    },
    async advance(ms) {
      const end = now + ms
      await settle()
      for (;;) {
        timers.sort((a, b) => a.at - b.at || a.id - b.id)
        const next = timers[0]
        if (!next || next.at > end) break
        timers.shift()
        now = next.at
        next.fn()
        await settle()
      }
      now = end
      await settle()
    },
    now: () => now,
    pendingTimers: () => timers.map((t) => t.at - now),
  }
}
