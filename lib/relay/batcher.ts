/**
 * Collapses bursts of reconcile keys into few webhook calls. Keys for one step are collected for
 * `delayMs` after the first one arrives (or until `maxKeys` are waiting), then flushed once,
 * de-duplicated. A failed flush puts its keys back beside any that arrived meanwhile and retries
 * after an exponential backoff with jitter. A key added while a flush is in flight waits for the
 * next flush, since the running one may already have read older state. `add` resolves true once a
 * flush containing the key succeeded, false if `drain` gave up on it, so callers can commit
 * cursors only past delivered events.
 */
import type { Logger } from '../log.ts'
import { type BackoffPolicy, backoffDelay, DEFAULT_BACKOFF } from './backoff.ts'

/** Runs `fn` after `ms`; returns a function that cancels it. */
export type SetTimer = (fn: () => void, ms: number) => () => void

export type BatcherOptions = {
  flush(step: string, keys: string[]): Promise<void>
  delayMs: number
  /** At most this many keys per flush; reaching it flushes at once. */
  maxKeys: number
  setTimer: SetTimer
  /** Returns a number in [0, 1), for backoff jitter. */
  random: () => number
  backoff?: BackoffPolicy
  log?: Logger
}

export type Batcher = {
  /** Queue `key` for `step`; resolves true when delivered, false when dropped by `drain`. */
  add(step: string, key: string): Promise<boolean>
  /** Flush everything now (one attempt per batch, no delays) and wait; later adds resolve false. */
  drain(): Promise<void>
  /** Keys waiting (not in flight), per step. */
  pending(): Record<string, number>
}

type Waiter = (delivered: boolean) => void

type StepState = {
  queue: Map<string, Waiter[]>
  cancelTimer?: () => void
  inFlight?: Promise<void>
  failures: number
}

type Batch = [string, Waiter[]][]

function settle(batch: Batch, delivered: boolean): void {
  for (const [, waiters] of batch) for (const w of waiters) w(delivered)
}

/** Puts a failed batch back in front of the keys that arrived meanwhile, merging duplicates. */
function requeue(s: StepState, batch: Batch): void {
  const later = s.queue
  s.queue = new Map(batch)
  for (const [key, waiters] of later) s.queue.set(key, [...(s.queue.get(key) ?? []), ...waiters])
}

export function createBatcher(options: BatcherOptions): Batcher {
  const steps = new Map<string, StepState>()
  const maxKeys = Math.max(1, Math.floor(options.maxKeys))
  const policy = options.backoff ?? DEFAULT_BACKOFF
  let draining = false

  const stateOf = (step: string): StepState => {
    let s = steps.get(step)
    if (!s) {
      s = { queue: new Map(), failures: 0 }
      steps.set(step, s)
    }
    return s
  }

  const schedule = (step: string, s: StepState, ms: number) => {
    if (s.cancelTimer || s.inFlight || s.queue.size === 0 || draining) return
    s.cancelTimer = options.setTimer(() => {
      s.cancelTimer = undefined
      void run(step, s)
    }, ms)
  }

  const run = (step: string, s: StepState): Promise<void> => {
    if (s.inFlight) return s.inFlight
    s.cancelTimer?.()
    s.cancelTimer = undefined
    const batch: Batch = [...s.queue.entries()].slice(0, maxKeys)
    for (const [key] of batch) s.queue.delete(key)
    if (batch.length === 0) return Promise.resolve()
    const keys = batch.map(([key]) => key)
    const attempt = async () => {
      try {
        // Through a microtask, so a flush that throws synchronously still fails asynchronously.
        await Promise.resolve().then(() => options.flush(step, keys))
        s.failures = 0
        s.inFlight = undefined
        settle(batch, true)
        schedule(step, s, s.queue.size >= maxKeys ? 0 : options.delayMs)
      } catch (err) {
        s.failures += 1
        s.inFlight = undefined
        if (draining) {
          settle(batch, false)
          options.log?.error('relay flush failed while draining', { step, keys: keys.length, err })
          return
        }
        requeue(s, batch)
        const delay = backoffDelay(s.failures, policy, options.random)
        options.log?.warn('relay flush failed', { step, keys: keys.length, retryInMs: delay, err })
        schedule(step, s, delay)
      }
    }
    s.inFlight = attempt()
    return s.inFlight
  }

  return {
    add(step, key) {
      if (draining) return Promise.resolve(false)
      const s = stateOf(step)
      return new Promise<boolean>((resolve) => {
        const waiters = s.queue.get(key)
        if (waiters) waiters.push(resolve)
        else s.queue.set(key, [resolve])
        if (s.queue.size >= maxKeys && !s.inFlight && s.failures === 0) void run(step, s)
        else schedule(step, s, options.delayMs)
      })
    },
    async drain() {
      draining = true
      for (const [step, s] of steps) {
        s.cancelTimer?.()
        s.cancelTimer = undefined
        while (s.inFlight || s.queue.size > 0) await run(step, s)
      }
    },
    pending() {
      const out: Record<string, number> = {}
      for (const [step, s] of steps) if (s.queue.size > 0) out[step] = s.queue.size
      return out
    },
  }
}
