/**
 * Paces a batch of units of work (reconcile keys) so the batch stays under the current ceiling
 * (frames.ts): a unit is started only while the subrequests used so far plus those the running
 * units and the new one may still need fit, each assumed to cost the most any unit of the batch
 * has cost so far (KEY_COST_ESTIMATE before the first is measured). The first unit starts whenever
 * the ceiling is not reached, so a batch always makes progress. Units never started are the
 * caller's to defer. Outside an invocation everything may start.
 */
import { currentFrame, measured } from './frames.ts'
import { KEY_COST_ESTIMATE } from './limits.ts'

export type Pacer = {
  /** Whether one more unit may start, with `running` in flight and `started` started so far. */
  mayStart(running: number, started: number): boolean
  /** Runs one unit and learns what it cost. */
  run<T>(fn: () => Promise<T>): Promise<T>
}

export function createPacer(estimate: number = KEY_COST_ESTIMATE): Pacer {
  const frame = currentFrame()
  if (!frame) return { mayStart: () => true, run: (fn) => fn() }
  let perUnit = estimate
  let measuredOne = false
  return {
    mayStart(running, started) {
      const used = frame.invocation.subrequests
      if (started === 0) return used < frame.ceiling
      return used + (running + 1) * perUnit <= frame.ceiling
    },
    async run(fn) {
      const { value, used } = await measured(fn)
      perUnit = measuredOne ? Math.max(perUnit, used) : Math.max(1, used)
      measuredOne = true
      return value
    },
  }
}
