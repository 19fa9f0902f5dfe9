/**
 * Collapses bursts of reconcile keys into few webhook calls. Keys for one step are collected for
 * `delayMs` after the first one arrives (or until `maxKeys` are waiting), then flushed once,
 * de-duplicated. A failed flush puts its keys back beside any that arrived meanwhile and retries
 * after an exponential backoff with jitter. A key added while a flush is in flight waits for the
 * next flush, since the running one may already have read older state. `add` resolves true once a
 * flush containing the key succeeded, false if `drain` gave up on it, so callers can commit
 * cursors only past delivered events. A flush may answer per-key results (the hook's): a key that
 * failed (`ok: false`) is sent again after a backoff of its own, up to `maxKeyAttempts` in all,
 * its callers still waiting (after the last attempt it is logged and counted as delivered: the
 * step's resync revisits it); a key answered with `requeueAfterMs` is sent again after that delay.
 * A key the hook deferred (it ran out of its invocation's budget before starting it) goes back to
 * the front of the queue for the next flush, its callers still waiting, counting no attempt.
 * With `leading`, a key that finds its step quiet (nothing waiting or in flight, and the last flush
 * ended `delayMs` or more ago) goes out on the next turn instead of after `delayMs`: a lone change
 * is not kept waiting, while a burst still collects behind the flush its first key started.
 * `hold` stops flushes from starting (keys keep collecting) until released.
 */
import type { Logger } from '../log.ts'
import { type BackoffPolicy, backoffDelay, DEFAULT_BACKOFF } from './backoff.ts'

/** Runs `fn` after `ms`; returns a function that cancels it. */
export type SetTimer = (fn: () => void, ms: number) => () => void

/** One key's outcome as the hook reports it; `deferred`: not run this time, to be sent again. */
export type KeyResult = {
  key: string
  ok: boolean
  outcome?: string
  requeueAfterMs?: number
  deferred?: boolean
}

export type BatcherOptions = {
  /** Delivers keys; may resolve with per-key results (keys it leaves out count as done). */
  // biome-ignore lint/suspicious/noConfusingVoidType: a flush that reports nothing resolves void
  flush(step: string, keys: string[]): Promise<KeyResult[] | void>
  delayMs: number
  /** At most this many keys per flush; reaching it flushes at once. */
  maxKeys: number
  setTimer: SetTimer
  /** Returns a number in [0, 1), for backoff jitter. */
  random: () => number
  backoff?: BackoffPolicy
  /** Attempts for a key whose result is ok: false, the first included (default 5). */
  maxKeyAttempts?: number
  /** Flush a key that finds its step quiet on the next turn (see the header; default false). */
  leading?: boolean
  /** Clock for delayed keys and quiet steps (default Date.now). */
  now?: () => number
  log?: Logger
}

export type Batcher = {
  /** Queue `key` for `step`; resolves true when delivered, false when dropped by `drain`. */
  add(step: string, key: string): Promise<boolean>
  /** Flush everything now (one attempt per batch, no delays) and wait; later adds resolve false. */
  drain(): Promise<void>
  /** Keys waiting (not in flight), per step. */
  pending(): Record<string, number>
  /** Keys waiting for a retry or a requeue delay, per step. */
  delayed(): Record<string, number>
  /**
   * Starts no flush until the returned release is called (once per hold; holds nest): keys keep
   * collecting, and go out together after the last release.
   */
  hold(): () => void
}

type Waiter = (delivered: boolean) => void

type Delayed = { at: number; cancel: () => void; waiters: Waiter[] }

type StepState = {
  queue: Map<string, Waiter[]>
  cancelTimer?: () => void
  inFlight?: Promise<void>
  failures: number
  /** Keys sent again later (retry of a failed key, or requeueAfterMs). */
  delayed: Map<string, Delayed>
  /** Failed attempts so far, per key. */
  keyFailures: Map<string, number>
  /** When the last flush of this step ended, if one has. */
  flushedAt?: number
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

function enqueue(s: StepState, key: string, waiters: Waiter[]): void {
  s.queue.set(key, [...(s.queue.get(key) ?? []), ...waiters])
}

export function createBatcher(options: BatcherOptions): Batcher {
  const steps = new Map<string, StepState>()
  const maxKeys = Math.max(1, Math.floor(options.maxKeys))
  const policy = options.backoff ?? DEFAULT_BACKOFF
  const maxKeyAttempts = Math.max(1, Math.floor(options.maxKeyAttempts ?? 5))
  const now = options.now ?? Date.now
  let draining = false
  let holds = 0

  const stateOf = (step: string): StepState => {
    let s = steps.get(step)
    if (!s) {
      s = { queue: new Map(), failures: 0, delayed: new Map(), keyFailures: new Map() }
      steps.set(step, s)
    }
    return s
  }

  const schedule = (step: string, s: StepState, ms: number) => {
    if (s.cancelTimer || s.inFlight || s.queue.size === 0 || draining || holds > 0) return
    s.cancelTimer = options.setTimer(() => {
      s.cancelTimer = undefined
      void run(step, s)
    }, ms)
  }

  /** Sends `d.key` again in `d.ms` (the earlier of two delays wins), its waiters still waiting. */
  const later = (step: string, s: StepState, d: { key: string; ms: number; waiters: Waiter[] }) => {
    const { key, ms, waiters } = d
    const at = now() + ms
    const existing = s.delayed.get(key)
    if (existing && existing.at <= at) {
      existing.waiters.push(...waiters)
      return
    }
    existing?.cancel()
    const entry: Delayed = {
      at,
      waiters: [...(existing?.waiters ?? []), ...waiters],
      cancel: () => {},
    }
    entry.cancel = options.setTimer(() => {
      if (s.delayed.get(key) !== entry) return
      s.delayed.delete(key)
      enqueue(s, key, entry.waiters)
      schedule(step, s, options.delayMs)
    }, ms)
    s.delayed.set(key, entry)
  }

  /** A key the hook answered ok: false: retried later (true) unless draining or out of attempts. */
  const retryFailed = (step: string, s: StepState, r: KeyResult, waiters: Waiter[]): boolean => {
    const fields = { step, key: r.key, outcome: r.outcome }
    if (draining) {
      options.log?.error('relay key failed while draining', fields)
      for (const w of waiters) w(false)
      return true
    }
    const attempts = (s.keyFailures.get(r.key) ?? 0) + 1
    if (attempts >= maxKeyAttempts) {
      options.log?.error('relay key failed; giving up', { ...fields, attempts })
      return false
    }
    s.keyFailures.set(r.key, attempts)
    const delay = backoffDelay(attempts, policy, options.random)
    options.log?.warn('relay key failed; retrying', {
      ...fields,
      attempt: attempts,
      retryInMs: delay,
    })
    later(step, s, { key: r.key, ms: delay, waiters })
    return true
  }

  /** Settles a delivered batch by its per-key results: done, retried later, or requeued. */
  const settleResults = (step: string, s: StepState, batch: Batch, results: KeyResult[]) => {
    const byKey = new Map(results.map((r) => [r.key, r]))
    const deferred: Batch = batch.filter(([key]) => byKey.get(key)?.deferred)
    if (deferred.length > 0) {
      options.log?.debug('relay keys deferred by the hook', { step, keys: deferred.length })
      requeue(s, deferred)
    }
    for (const [key, waiters] of batch) {
      const r = byKey.get(key)
      if (r?.deferred) continue
      if (r && !r.ok && retryFailed(step, s, r, waiters)) continue
      s.keyFailures.delete(key)
      for (const w of waiters) w(true)
      const requeue = r?.ok ? (r.requeueAfterMs ?? 0) : 0
      if (requeue > 0 && !draining) {
        options.log?.debug('relay key requeued', { step, key, afterMs: requeue })
        later(step, s, { key, ms: requeue, waiters: [] })
      }
    }
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
        const results = await Promise.resolve().then(() => options.flush(step, keys))
        s.failures = 0
        s.inFlight = undefined
        s.flushedAt = now()
        if (Array.isArray(results)) settleResults(step, s, batch, results)
        else settle(batch, true)
        schedule(step, s, s.queue.size >= maxKeys ? 0 : options.delayMs)
      } catch (err) {
        s.failures += 1
        s.inFlight = undefined
        s.flushedAt = now()
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

  /** Whether a key arriving now finds `s` quiet enough to go out on the next turn. */
  const quiet = (s: StepState) =>
    options.leading === true &&
    s.queue.size === 0 &&
    !s.inFlight &&
    !s.cancelTimer &&
    s.failures === 0 &&
    (s.flushedAt === undefined || now() - s.flushedAt >= options.delayMs)

  return {
    add(step, key) {
      if (draining) return Promise.resolve(false)
      const s = stateOf(step)
      const delay = quiet(s) ? 0 : options.delayMs
      return new Promise<boolean>((resolve) => {
        const waiters = s.queue.get(key)
        if (waiters) waiters.push(resolve)
        else s.queue.set(key, [resolve])
        if (s.queue.size >= maxKeys && !s.inFlight && s.failures === 0 && holds === 0)
          void run(step, s)
        else schedule(step, s, delay)
      })
    },
    async drain() {
      draining = true
      for (const [step, s] of steps) {
        s.cancelTimer?.()
        s.cancelTimer = undefined
        for (const d of s.delayed.values()) {
          d.cancel()
          for (const w of d.waiters) w(false)
        }
        s.delayed.clear()
        while (s.inFlight || s.queue.size > 0) await run(step, s)
      }
    },
    pending() {
      const out: Record<string, number> = {}
      for (const [step, s] of steps) if (s.queue.size > 0) out[step] = s.queue.size
      return out
    },
    delayed() {
      const out: Record<string, number> = {}
      for (const [step, s] of steps) if (s.delayed.size > 0) out[step] = s.delayed.size
      return out
    },
    hold() {
      holds += 1
      let released = false
      return () => {
        if (released) return
        released = true
        holds -= 1
        if (holds === 0) for (const [step, s] of steps) schedule(step, s, options.delayMs)
      }
    },
  }
}
