/**
 * Paces a batch of units of work (reconcile keys) so the batch stays under the current ceiling
 * (frames.ts): a unit is started only while the subrequests used so far plus those the running
 * units and the new one may still need fit, each assumed to cost the most any unit of the batch
 * has cost so far (the step's estimate, else KEY_COST_ESTIMATE, before one is measured). The
 * batch's first unit is left out of that most once another unit has been measured: it pays the
 * reads the batch shares (a session's snapshot), which the units after it find done, and counting
 * it for every unit held a translate batch to a quarter of its wave, each group commit then paying
 * its shared requests for a few mailboxes. The first unit starts whenever the ceiling is not
 * reached, so a batch always makes progress. Units never started are the caller's to defer.
 * Outside an invocation everything may start.
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
  let runs = 0
  let first: number | undefined
  let others: number | undefined
  const perUnit = () => others ?? first ?? estimate
  return {
    mayStart(running, started) {
      const used = frame.invocation.subrequests
      if (started === 0) return used < frame.ceiling
      return used + (running + 1) * perUnit() <= frame.ceiling
    },
    async run(fn) {
      const isFirst = runs++ === 0
      const { value, used } = await measured(fn)
      const cost = Math.max(1, used)
      if (isFirst) first = cost
      else others = Math.max(others ?? 0, cost)
      return value
    },
  }
}
