/**
 * The longest event-loop stall of this process, ms, a tick at a time: `tick()` answers the
 * longest since the last tick (or the start) and starts the next, `longest()` the longest over
 * every tick and the one in progress. The storm's fleet and hub report it (storm-pollers.ts,
 * storm.ts): a stalled process sends and answers nothing meanwhile.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'

export type LoopStalls = { tick(): number; longest(): number; stop(): void }

export function watchLoopStalls(): LoopStalls {
  const h = monitorEventLoopDelay({ resolution: 20 })
  h.enable()
  let longest = 0
  const now = () => Math.round(h.max / 1e6)
  return {
    tick() {
      const t = now()
      longest = Math.max(longest, t)
      h.reset()
      return t
    },
    longest: () => Math.max(longest, now()),
    stop: () => h.disable(),
  }
}
