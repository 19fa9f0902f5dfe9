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
 */

/** Woken held polls of one process that build their answer at once. */
export const WAKE_CONCURRENCY = 16

export type WakeGate = {
  /** Runs `fn` once fewer than the gate's limit run, in the order asked. */
  run<T>(fn: () => Promise<T>): Promise<T>
  /** Calls running and waiting now (tests, metrics). */
  running(): number
  waiting(): number
}

export function createWakeGate(limit = WAKE_CONCURRENCY): WakeGate {
  if (!(limit >= 1)) throw new Error(`a wake gate needs a limit of at least 1, got ${limit}`)
  let active = 0
  const queue: (() => void)[] = []
  const release = () => {
    const next = queue.shift()
    if (next) next()
    else active--
  }
  return {
    async run(fn) {
      if (active < limit) active++
      else await new Promise<void>((go) => queue.push(go))
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
