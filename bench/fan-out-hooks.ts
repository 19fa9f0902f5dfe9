/**
 * Drives a reconcile step the way the watch relay does: `POST /hooks/<step>` with batches of keys
 * (at most 500 per call), a few calls in flight at once. Keys whose outcome is a failure, or that
 * `settled` says are not done yet, are sent again in another round, as the relay retries them;
 * after `rounds` rounds the remaining ones fail the benchmark with their outcomes.
 */

import { chunks } from './fan-out-objects.ts'
import type { HubClient } from './hub-client.ts'
import { runLoad } from './load.ts'

export type HookOutcome = { key: string; ok: boolean; outcome: string }

export type HookOptions = {
  /** Keys per call, at most 500. */
  batch: number
  /** Calls in flight at once. */
  calls: number
  /** Rounds before giving up on keys that keep failing; default 5. */
  rounds?: number
  /** Is an ok outcome final? Default: every ok outcome is. */
  settled?: (o: HookOutcome) => boolean
  /** Called after each call with how many keys of this round have been answered. */
  progress?: (answered: number, total: number) => void
}

export type HookRun = {
  step: string
  keys: number
  calls: number
  rounds: number
  /** Keys that needed another round. */
  retried: number
  elapsedMs: number
}

function outcomesOf(body: unknown): HookOutcome[] {
  const results = (body as { results?: unknown } | undefined)?.results
  if (!Array.isArray(results)) throw new Error(`hook answered without results: ${String(body)}`)
  return results as HookOutcome[]
}

/** Runs `step` for every key until each has a settled outcome. */
export async function driveHook(
  hub: HubClient,
  step: string,
  keys: readonly string[],
  opts: HookOptions
): Promise<HookRun> {
  const settled = opts.settled ?? (() => true)
  const maxRounds = opts.rounds ?? 5
  const start = performance.now()
  let todo = [...new Set(keys)]
  let calls = 0
  let retried = 0
  let rounds = 0
  let last: HookOutcome[] = []
  while (todo.length > 0) {
    if (++rounds > maxRounds) {
      const sample = last.slice(0, 3).map((o) => `${o.key}: ${o.outcome}`)
      throw new Error(
        `${step}: ${todo.length} keys unsettled after ${maxRounds} rounds (${sample})`
      )
    }
    const batches = chunks(todo, Math.min(500, opts.batch))
    const again: HookOutcome[] = []
    let answered = 0
    await runLoad({ count: batches.length, concurrency: opts.calls }, async (i) => {
      const batch = batches[i] ?? []
      const body = await hub.call('POST', `/hooks/${step}`, { body: { keys: batch } })
      calls++
      for (const o of outcomesOf(body)) if (!o.ok || !settled(o)) again.push(o)
      answered += batch.length
      opts.progress?.(answered, todo.length)
    })
    retried += again.length
    last = again
    todo = again.map((o) => o.key)
  }
  return {
    step,
    keys: new Set(keys).size,
    calls,
    rounds,
    retried,
    elapsedMs: performance.now() - start,
  }
}
