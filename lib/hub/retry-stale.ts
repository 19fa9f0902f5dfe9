/**
 * The hub's GuaranteedUpdate: a write that reads the object, decides, and writes it back with the
 * read resourceVersion as condition can lose the race to a concurrent writer (the store raises a
 * StaleWriteError). kube never lets such a race reach a client that did not ask for a
 * precondition — delete, merge/strategic/JSON patch, apply, and update without resourceVersion
 * read again and decide again — so every such verb runs through `retryStale`. A client's own
 * precondition (a resourceVersion in the body or patch, DeleteOptions preconditions) is checked
 * against each fresh read, so it still fails exactly when the object moved. Attempts back off with
 * jitter and stop at a deadline; then the last Conflict is answered.
 */
import { isStaleWrite } from '../errors.ts'

export type RetryStaleOptions = {
  /** Give up after this long (default 20 s). */
  deadlineMs?: number
  /** Clock in ms (default Date.now). */
  now?: () => number
  /** Waits between attempts (default setTimeout). */
  sleep?: (ms: number) => Promise<void>
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Runs `attempt` until it does not fail with a StaleWriteError, or the deadline passes. */
export async function retryStale<T>(
  attempt: () => Promise<T>,
  opts: RetryStaleOptions = {}
): Promise<T> {
  const now = opts.now ?? Date.now
  const sleep = opts.sleep ?? defaultSleep
  const deadline = now() + (opts.deadlineMs ?? 20_000)
  for (let n = 0; ; n++) {
    try {
      return await attempt()
    } catch (e) {
      if (!isStaleWrite(e) || now() >= deadline) throw e
      // The first retry goes at once (the usual race is one other writer); later ones spread out.
      if (n > 0) await sleep(Math.random() * Math.min(100, 5 * 2 ** n))
    }
  }
}
