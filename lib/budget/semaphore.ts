/**
 * A counting semaphore: at most `size` holders at once, the rest wait in arrival order.
 * `acquire()` resolves with a release function (call it exactly once; extra calls are ignored).
 * Used per invocation to keep outgoing requests within the Workers connection limit.
 */

export type Semaphore = {
  acquire(): Promise<() => void>
  /** Holders right now. */
  held(): number
  /** Callers waiting for a slot. */
  waiting(): number
}

export function createSemaphore(size: number): Semaphore {
  const limit = Math.max(1, Math.floor(size))
  let holders = 0
  const queue: (() => void)[] = []
  const releaser = () => {
    let done = false
    return () => {
      if (done) return
      done = true
      const next = queue.shift()
      if (next) next()
      else holders--
    }
  }
  return {
    acquire() {
      if (holders < limit) {
        holders++
        return Promise.resolve(releaser())
      }
      // The slot passes straight to the next waiter: `holders` stays the same.
      return new Promise((resolve) => queue.push(() => resolve(releaser())))
    },
    held: () => holders,
    waiting: () => queue.length,
  }
}
