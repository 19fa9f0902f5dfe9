/**
 * Runs a controller over a batch of keys: duplicates collapse into one run, each key is reconciled
 * on its own (one key's failure never stops the others; up to the step's `concurrency` at once,
 * sharing the step's per-batch `session` when it has one), and every run is one JSON log line with
 * the step, the key, the outcome and the duration (and, given a RunObserver, a metrics sample with
 * a bounded outcome class). Also the resync pass: one bounded page of keys
 * per call, with the cursor kept in the key-value store so the next timer tick continues.
 *
 * `runBatch` is `runKeys` within the invocation's subrequest budget (lib/budget/pacer.ts): keys
 * start in order while the projected cost of those running and the next fits under the current
 * ceiling; the keys never started are answered as `deferred`, for the caller to send again (the
 * hooks) or to resume from (the resync: every step lists its keys in order after a cursor that is
 * the last key handled, so a page cut short continues after its last started key).
 */
import { BudgetDeferred, isBudgetExceeded } from '../budget/budget-exceeded.ts'
import { createPacer } from '../budget/pacer.ts'
import type { Logger } from '../log.ts'
import type { KvStore } from '../store/types.ts'
import { type Controller, type ReconcileResult, TerminalError } from './types.ts'

export type KeyOutcome = { key: string; ok: boolean; outcome: string; requeueAfterMs?: number }

/** A run refused for want of budget: deferred, not an outcome. */
const REFUSED = Symbol('refused')
type RunOutcome = KeyOutcome | typeof REFUSED

/**
 * Told of every run (for metrics): the step, a bounded outcome class — `ok`, `requeue` (asked to
 * run again), `error` or `terminal` — and the duration in seconds.
 */
export type RunObserver = (
  step: string,
  outcome: 'ok' | 'requeue' | 'error' | 'terminal',
  seconds: number
) => void

/** Where a run's outcomes go: the log, and `observe` (metrics) when given. */
type RunReporting = { log: Logger; observe?: RunObserver | undefined }

async function runOne(
  c: Controller,
  reconcile: (key: string) => Promise<ReconcileResult>,
  key: string,
  to: RunReporting
): Promise<RunOutcome> {
  const { log, observe } = to
  const started = Date.now()
  const seen = (o: Parameters<RunObserver>[1]) =>
    observe?.(c.name, o, (Date.now() - started) / 1000)
  const l = log.child({ step: c.name, key })
  try {
    const res = await reconcile(key)
    l.info('reconciled', { outcome: res.outcome, durationMs: Date.now() - started })
    seen(res.requeueAfterMs === undefined ? 'ok' : 'requeue')
    return { key, ok: true, ...res }
  } catch (e) {
    if (isBudgetExceeded(e)) {
      const reason = e instanceof BudgetDeferred ? e.message : 'no room left in the budget'
      l.info('reconcile deferred', { reason })
      return REFUSED
    }
    const terminal = e instanceof TerminalError
    l[terminal ? 'warn' : 'error']('reconcile failed', {
      error: e,
      terminal,
      durationMs: Date.now() - started,
    })
    seen(terminal ? 'terminal' : 'error')
    return { key, ok: false, outcome: e instanceof Error ? e.message : String(e) }
  }
}

export type BatchResult = { results: KeyOutcome[]; deferred: string[] }

async function runPaced(
  c: Controller,
  keys: string[],
  to: RunReporting,
  paced: boolean
): Promise<BatchResult> {
  const unique = [...new Set(keys)]
  const session = c.session ? c.session(unique) : c
  const pacer = paced ? createPacer(c.keyCost) : undefined
  const out: RunOutcome[] = new Array(unique.length)
  let next = 0
  let running = 0
  // Workers waiting for a running key to finish before they ask the pacer again.
  let finished: (() => void)[] = []
  const worker = async () => {
    while (next < unique.length) {
      if (pacer && !pacer.mayStart(running, next)) {
        if (running === 0) return
        await new Promise<void>((resolve) => finished.push(resolve))
        continue
      }
      const i = next++
      const key = unique[i] as string
      running++
      const run = () => runOne(c, (k) => session.reconcile(k), key, to)
      out[i] = await (pacer ? pacer.run(run) : run())
      running--
      const waiting = finished
      finished = []
      for (const wake of waiting) wake()
    }
  }
  const width = Math.max(1, Math.min(c.concurrency ?? 1, unique.length))
  await Promise.all(Array.from({ length: width }, worker))
  if ('settle' in session && session.settle) {
    try {
      await session.settle()
    } catch (e) {
      to.log.error('finishing the batch failed', { step: c.name, keys: next, error: e })
    }
  }
  const started = out.slice(0, next)
  return {
    results: started.filter((o): o is KeyOutcome => o !== REFUSED),
    deferred: [...unique.filter((_, i) => i < next && out[i] === REFUSED), ...unique.slice(next)],
  }
}

/** Runs each distinct key once, `c.concurrency` at a time, in one session when the step has one. */
export async function runKeys(
  c: Controller,
  keys: string[],
  log: Logger,
  observe?: RunObserver
): Promise<KeyOutcome[]> {
  return (await runPaced(c, keys, { log, observe }, false)).results
}

/** `runKeys` within the current invocation's ceiling; keys never started come back deferred. */
export function runBatch(
  c: Controller,
  keys: string[],
  log: Logger,
  observe?: RunObserver
): Promise<BatchResult> {
  return runPaced(c, keys, { log, observe }, true)
}

const CURSORS = 'resync'

/** A resync page's log, its size (default 100 keys) and the observer of its runs. */
export type ResyncPageOptions = { log: Logger; limit?: number; observe?: RunObserver | undefined }

/**
 * One resync page of `c` within the current ceiling; returns how many keys it ran, how many it
 * left for the next page, and whether the pass wrapped around.
 */
export async function resyncPage(
  c: Controller,
  kv: KvStore,
  o: ResyncPageOptions
): Promise<{ ran: number; failed: number; deferred: number; wrapped: boolean }> {
  const { log, limit = 100, observe } = o
  const entry = await kv.get<{ cursor?: string }>(CURSORS, c.name)
  const cursor = entry?.value.cursor
  const page = await c.listKeys(cursor, limit)
  const { results, deferred } = await runBatch(c, page.keys, log, observe)
  // Cut short: resume just before the first key deferred (keys after it that ran run again).
  const firstDeferred = deferred.length === 0 ? -1 : page.keys.indexOf(deferred[0] as string)
  const next =
    deferred.length === 0 ? page.next : firstDeferred > 0 ? page.keys[firstDeferred - 1] : cursor
  await kv.put(CURSORS, c.name, next ? { cursor: next } : {})
  const failed = results.filter((r) => !r.ok).length
  const wrapped = deferred.length === 0 && !page.next
  return { ran: results.length, failed, deferred: deferred.length, wrapped }
}
