/**
 * The main bench hub's logger: it keeps the `reconciled` and `reconcile failed` lines that
 * lib/reconcile/run.ts writes for every key a step runs (step, key, outcome, durationMs) in memory,
 * so the fan-out phase can say how long each mailbox's translate took, and prints warnings and
 * errors to stderr as the hub's default logger does. Other info lines are dropped.
 */
import { createLogger, type Logger, type LogLevel } from '../lib/log.ts'

export type ReconcileRun = {
  step: string
  key: string
  ok: boolean
  outcome: string
  durationMs: number
}

export type ReconcileLog = {
  logger: Logger
  /** The runs logged since the last `clear()`, oldest first. */
  runs(): ReconcileRun[]
  clear(): void
}

/** A reconcile run from one JSON log line, or undefined when the line is something else. */
export function parseReconcileLine(line: string): ReconcileRun | undefined {
  let rec: Record<string, unknown>
  try {
    rec = JSON.parse(line) as Record<string, unknown>
  } catch {
    return undefined
  }
  const ok = rec.msg === 'reconciled'
  if (!ok && rec.msg !== 'reconcile failed') return undefined
  if (typeof rec.step !== 'string' || typeof rec.key !== 'string') return undefined
  const error = rec.error as { message?: unknown } | undefined
  const outcome = ok ? rec.outcome : error?.message
  return {
    step: rec.step,
    key: rec.key,
    ok,
    outcome: typeof outcome === 'string' ? outcome : '',
    durationMs: typeof rec.durationMs === 'number' ? rec.durationMs : Number.NaN,
  }
}

export function createReconcileLog(
  write: (line: string) => void = (line) => process.stderr.write(`${line}\n`)
): ReconcileLog {
  let runs: ReconcileRun[] = []
  const sink = (line: string, level: LogLevel) => {
    const run = parseReconcileLine(line)
    if (run) runs.push(run)
    if (level === 'warn' || level === 'error') write(line)
  }
  return {
    logger: createLogger({ level: 'info', sink }),
    runs: () => [...runs],
    clear() {
      runs = []
    },
  }
}
