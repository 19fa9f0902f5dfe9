/**
 * "Applied at edge" bookkeeping for one propagation run. Each timed change gets a marker (a value
 * in the ConfigMap's data); `begin` starts it with the time the write was sent, and every agent's
 * edge cluster reports each object it stores (edge-memory-kube.ts `onWrite`) through `observe`,
 * which keeps the first moment each agent stored the marker of the current change. `wait`
 * resolves when every agent has it, or at the timeout with the others counted as missing. The
 * clock is injected; no I/O.
 */

export type ChangeOutcome = { latenciesMs: number[]; missing: number }

export type Tracker = {
  begin(marker: string, startMs: number): void
  observe(agent: number, marker: string | undefined, atMs: number): void
  /** Agents that stored the current marker. */
  applied(): number
  /** Latencies of the current change so far, and the agents still missing. */
  outcome(): ChangeOutcome
  /** Resolves when every agent applied the current change, or after `timeoutMs`. */
  wait(timeoutMs: number): Promise<ChangeOutcome>
}

export function createTracker(agents: number): Tracker {
  let marker: string | undefined
  let startMs = 0
  let seen = new Map<number, number>()
  let waiter: (() => void) | undefined
  const outcome = (): ChangeOutcome => ({
    latenciesMs: [...seen.values()].map((at) => at - startMs),
    missing: agents - seen.size,
  })
  return {
    begin(next, at) {
      marker = next
      startMs = at
      seen = new Map()
    },
    observe(agent, value, atMs) {
      if (marker === undefined || value !== marker || seen.has(agent)) return
      if (agent < 0 || agent >= agents) return
      seen.set(agent, atMs)
      if (seen.size === agents) waiter?.()
    },
    applied: () => seen.size,
    outcome,
    wait(timeoutMs) {
      if (seen.size === agents) return Promise.resolve(outcome())
      return new Promise((resolve) => {
        const finish = () => {
          clearTimeout(timer)
          waiter = undefined
          resolve(outcome())
        }
        const timer = setTimeout(finish, timeoutMs)
        waiter = finish
      })
    },
  }
}
