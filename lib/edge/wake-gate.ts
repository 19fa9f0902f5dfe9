/**
 * The wake gate: how many held polls of one process (the Node hub, a Worker isolate) build their
 * answer at once after their bell rang. A fleet-wide change rings every held poll of a shared
 * manifest together — 10,000 at once in the bench — and each then reads its desired state again
 * and renders a full answer (a few ms of CPU each): unbounded, that herd took every store
 * connection and the event loop, and the process stopped accepting anything else (the relay's
 * hook calls timed out connecting) until it had answered them all. Through the gate the herd
 * answers in turn, a few at a time, and the rest of the process's work interleaves — heartbeats and
 * new polls among it: a woken poll waiting here is not counted among the edge requests in work of
 * the storm control (admission.ts) until the gate lets it run, so a draining herd does not have
 * every other edge request shed. First come, first served.
 *
 * In a Worker the requests waiting here are other requests of the isolate than the ones that let
 * them go, and workerd cancels a request that waits on nothing of its own ("the Worker's code had
 * hung", a 500): with `keepAliveMs` a waiting request holds a repeating timer of its own until
 * its turn comes. Without it (the Node hub) a waiter holds nothing but its place.
 */

/** Woken held polls of one process that build their answer at once. */
export const WAKE_CONCURRENCY = 16
/** A Worker's waiter's own timer (functions/index.ts). */
export const WORKER_KEEP_ALIVE_MS = 1000

export type WakeGate = {
  /** Runs `fn` once fewer than the gate's limit run, in the order asked. */
  run<T>(fn: () => Promise<T>): Promise<T>
  /** Calls running and waiting now (tests, metrics). */
  running(): number
  waiting(): number
}

/** The repeating timer a waiter holds (injected by tests). */
export type GateTimers = {
  repeat(fn: () => void, ms: number): unknown
  clear(handle: unknown): void
}

export type WakeGateOptions = {
  limit?: number
  /** The period of a waiter's own timer; none: it holds no timer. */
  keepAliveMs?: number
  timers?: GateTimers
}

const realTimers: GateTimers = {
  repeat: (fn, ms) => setInterval(fn, ms),
  clear: (h) => clearInterval(h as ReturnType<typeof setInterval>),
}

export function createWakeGate(o: WakeGateOptions = {}): WakeGate {
  const limit = o.limit ?? WAKE_CONCURRENCY
  if (!(limit >= 1)) throw new Error(`a wake gate needs a limit of at least 1, got ${limit}`)
  const timers = o.timers ?? realTimers
  let active = 0
  const queue: (() => void)[] = []
  const release = () => {
    const next = queue.shift()
    if (next) next()
    else active--
  }
  /** Waits for a running call to hand its place over, holding the keep-alive meanwhile. */
  const turn = () =>
    new Promise<void>((go) => {
      const keep = o.keepAliveMs === undefined ? undefined : timers.repeat(() => {}, o.keepAliveMs)
      queue.push(() => {
        if (keep !== undefined) timers.clear(keep)
        go()
      })
    })
  return {
    async run(fn) {
      if (active < limit) active++
      else await turn()
      try {
        return await fn()
      } finally {
        release()
      }
    },
    running: () => active,
    waiting: () => queue.length,
  }
}
