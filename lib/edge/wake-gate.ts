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
 * hung", a 500): with `keepAliveMs` a waiting request holds a timer of its own meanwhile, which
 * also looks again at whether its turn came, should the runtime not carry the other request's
 * hand-over into it. Without it (the Node hub) a waiter holds nothing but its place.
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

/** The timers a waiter holds (injected by tests). */
export type GateTimers = {
  set(fn: () => void, ms: number): unknown
  clear(handle: unknown): void
}

export type WakeGateOptions = {
  limit?: number
  /** A waiter's own timer, re-armed until its turn comes; none: it holds no timer. */
  keepAliveMs?: number
  timers?: GateTimers
}

const realTimers: GateTimers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
}

type Turn = { granted: boolean; wake: () => void }

export function createWakeGate(o: WakeGateOptions = {}): WakeGate {
  const limit = o.limit ?? WAKE_CONCURRENCY
  if (!(limit >= 1)) throw new Error(`a wake gate needs a limit of at least 1, got ${limit}`)
  const timers = o.timers ?? realTimers
  let active = 0
  const queue: Turn[] = []
  const release = () => {
    const next = queue.shift()
    if (!next) active--
    else {
      next.granted = true
      next.wake()
    }
  }
  /** One wait for the turn: the hand-over, or (keepAliveMs) the waiter's own timer. */
  const waitOnce = (turn: Turn) =>
    new Promise<void>((go) => {
      let timer: unknown
      turn.wake = () => {
        if (timer !== undefined) timers.clear(timer)
        go()
      }
      if (o.keepAliveMs !== undefined) timer = timers.set(go, o.keepAliveMs)
    })
  return {
    async run(fn) {
      if (active < limit) active++
      else {
        const turn: Turn = { granted: false, wake: () => {} }
        queue.push(turn)
        while (!turn.granted) await waitOnce(turn)
      }
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
