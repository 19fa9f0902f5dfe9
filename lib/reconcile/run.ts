/**
 * Runs a controller over a batch of keys: duplicates collapse into one run, each key is reconciled
 * on its own (one key's failure never stops the others; up to the step's `concurrency` at once,
 * sharing the step's per-batch `session` when it has one), and every run is one JSON log line with
 * the step, the key, the outcome and the duration. Also the resync pass: one bounded page of keys
 * per call, with the cursor kept in the key-value store so the next timer tick continues.
 */
import type { Logger } from '../log.ts'
import type { KvStore } from '../store/types.ts'
import { type Controller, type ReconcileResult, TerminalError } from './types.ts'

export type KeyOutcome = { key: string; ok: boolean; outcome: string; requeueAfterMs?: number }

async function runOne(
  c: Controller,
  reconcile: (key: string) => Promise<ReconcileResult>,
  key: string,
  log: Logger
): Promise<KeyOutcome> {
  const started = Date.now()
  const l = log.child({ step: c.name, key })
  try {
    const res = await reconcile(key)
    l.info('reconciled', { outcome: res.outcome, durationMs: Date.now() - started })
    return { key, ok: true, ...res }
  } catch (e) {
    const terminal = e instanceof TerminalError
    l[terminal ? 'warn' : 'error']('reconcile failed', {
      error: e,
      terminal,
      durationMs: Date.now() - started,
    })
    return { key, ok: false, outcome: e instanceof Error ? e.message : String(e) }
  }
}

/** Runs each distinct key once, `c.concurrency` at a time, in one session when the step has one. */
export async function runKeys(c: Controller, keys: string[], log: Logger): Promise<KeyOutcome[]> {
  const unique = [...new Set(keys)]
  const session = c.session ? c.session() : c
  const out: KeyOutcome[] = new Array(unique.length)
  let next = 0
  const worker = async () => {
    while (next < unique.length) {
      const i = next++
      out[i] = await runOne(c, (k) => session.reconcile(k), unique[i] as string, log)
    }
  }
  const width = Math.max(1, Math.min(c.concurrency ?? 1, unique.length))
  await Promise.all(Array.from({ length: width }, worker))
  return out
}

const CURSORS = 'resync'

/** One resync page of `c`; returns how many keys it ran and whether the pass wrapped around. */
export async function resyncPage(
  c: Controller,
  kv: KvStore,
  log: Logger,
  limit = 100
): Promise<{ ran: number; failed: number; wrapped: boolean }> {
  const entry = await kv.get<{ cursor?: string }>(CURSORS, c.name)
  const page = await c.listKeys(entry?.value.cursor, limit)
  const results = await runKeys(c, page.keys, log)
  await kv.put(CURSORS, c.name, page.next ? { cursor: page.next } : {})
  return { ran: results.length, failed: results.filter((r) => !r.ok).length, wrapped: !page.next }
}
