/**
 * Drives a reconcile step the way the watch relay does: `POST /hooks/<step>` with batches of keys
 * (at most 500 per call), a few calls in flight at once. Keys the hook deferred (its invocation's
 * budget ran short: the answer's `deferred`) go back into the same round's queue and are sent in
 * a later call, as the relay re-sends them. Keys whose outcome is a failure, or that `settled`
 * says are not done yet, are sent again in another round, as the relay retries them; after
 * `rounds` rounds the remaining ones fail the benchmark with their outcomes.
 */

import type { HubClient } from './hub-client.ts'

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
  /**
   * How often one key may be deferred before the run gives up on it (listed in `abandoned`);
   * default: no bound (a key the hook keeps deferring is sent again for ever).
   */
  maxDeferrals?: number
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
  /** Keys the hook deferred (sent again in a later call of the same round). */
  deferred: number
  /** Keys given up on after `maxDeferrals` deferrals, never answered. */
  abandoned: string[]
  elapsedMs: number
}

type HookAnswer = { outcomes: HookOutcome[]; deferred: string[] }

function answerOf(body: unknown): HookAnswer {
  const answer = body as { results?: unknown; deferred?: unknown } | undefined
  if (!Array.isArray(answer?.results))
    throw new Error(`hook answered without results: ${String(body)}`)
  const deferred = Array.isArray(answer.deferred) ? (answer.deferred as string[]) : []
  return { outcomes: answer.results as HookOutcome[], deferred }
}

/** A round of hook `step` over `keys`, sent as `opts` say; `count` adds up its calls. */
type Round = {
  step: string
  keys: string[]
  opts: HookOptions
  count: { calls: number; deferred: number; perKey: Map<string, number>; abandoned: string[] }
}

/** One round: every key of `keys` sent until none is deferred; returns those to send again. */
async function runRound(hub: HubClient, round: Round): Promise<HookOutcome[]> {
  const { step, keys, opts, count } = round
  const settled = opts.settled ?? (() => true)
  const queue = [...keys]
  const again: HookOutcome[] = []
  let answered = 0
  // A worker that got keys deferred sends them itself: no round ends with keys queued.
  const worker = async (): Promise<void> => {
    while (queue.length > 0) {
      const batch = queue.splice(0, Math.min(500, opts.batch))
      const body = await hub.call('POST', `/hooks/${step}`, { body: { keys: batch } })
      count.calls++
      const { outcomes, deferred } = answerOf(body)
      for (const o of outcomes) if (!o.ok || !settled(o)) again.push(o)
      for (const key of deferred) {
        const times = (count.perKey.get(key) ?? 0) + 1
        count.perKey.set(key, times)
        if (times > (opts.maxDeferrals ?? Number.POSITIVE_INFINITY)) count.abandoned.push(key)
        else queue.push(key)
      }
      count.deferred += deferred.length
      answered += outcomes.length
      opts.progress?.(answered, keys.length)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, opts.calls) }, worker))
  return again
}

/** Runs `step` for every key until each has a settled outcome. */
export async function driveHook(
  hub: HubClient,
  step: string,
  keys: readonly string[],
  opts: HookOptions
): Promise<HookRun> {
  const maxRounds = opts.rounds ?? 5
  const start = performance.now()
  let todo = [...new Set(keys)]
  const count: Round['count'] = { calls: 0, deferred: 0, perKey: new Map(), abandoned: [] }
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
    const again = await runRound(hub, { step, keys: todo, opts, count })
    retried += again.length
    last = again
    todo = again.map((o) => o.key)
  }
  return {
    step,
    keys: new Set(keys).size,
    calls: count.calls,
    deferred: count.deferred,
    abandoned: count.abandoned,
    rounds,
    retried,
    elapsedMs: performance.now() - start,
  }
}
