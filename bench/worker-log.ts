/**
 * What the Worker's reconcile runs did, from its log (JSON lines; wrangler may put text before the
 * JSON): per step, the runs, those that changed nothing and those that failed, and the run time.
 * "Changed nothing" is the step's own outcome: translate `…: unchanged`, mailbox `unchanged`,
 * where `unchanged`, summarize `unchanged`. Runs the cron's resync made (logged `via: resync`) are
 * counted apart too. Lines before `since` (a byte offset) are skipped, so one log can be cut into
 * the phases of a run.
 */
import { readFile } from 'node:fs/promises'
import { type Summary, summarize } from './stats.ts'

export type StepRuns = {
  runs: number
  unchanged: number
  failed: number
  /** Runs the cron's resync made (a page of keys a minute per step, level-based, whatever changed). */
  resync: number
  /** Outcomes by text with the counts of copies taken out (`added 3` → `added N`). */
  outcomes: Record<string, number>
  durationMs: Summary
}

export type WorkerRuns = Record<string, StepRuns>

type Line = { msg?: string; step?: string; outcome?: string; durationMs?: number; via?: string }

function parse(line: string): Line | undefined {
  const at = line.indexOf('{')
  if (at < 0) return undefined
  try {
    return JSON.parse(line.slice(at)) as Line
  } catch {
    return undefined
  }
}

/** The outcome with its numbers replaced by N, so outcomes group. */
const shape = (outcome: string) => outcome.replace(/\d+/g, 'N')

/** The runs logged in `text` (the log's content from some offset). */
export function countRuns(text: string): WorkerRuns {
  const by = new Map<string, { runs: Line[]; failed: number }>()
  for (const raw of text.split('\n')) {
    const l = parse(raw)
    if (!l?.step || (l.msg !== 'reconciled' && l.msg !== 'reconcile failed')) continue
    const s = by.get(l.step) ?? { runs: [], failed: 0 }
    if (l.msg === 'reconcile failed') s.failed++
    else s.runs.push(l)
    by.set(l.step, s)
  }
  const out: WorkerRuns = {}
  for (const [step, s] of by) {
    const outcomes: Record<string, number> = {}
    for (const r of s.runs) {
      const k = shape(r.outcome ?? '')
      outcomes[k] = (outcomes[k] ?? 0) + 1
    }
    out[step] = {
      runs: s.runs.length + s.failed,
      unchanged: s.runs.filter((r) => /(^|: )unchanged$/.test(r.outcome ?? '')).length,
      failed: s.failed,
      resync: s.runs.filter((r) => r.via === 'resync').length,
      outcomes,
      durationMs: summarize(s.runs.map((r) => r.durationMs ?? 0)),
    }
  }
  return out
}

/** The runs logged in file `path` after byte `since`, and the file's length (the next `since`). */
export async function runsSince(
  path: string,
  since: number
): Promise<{ runs: WorkerRuns; end: number }> {
  const buf = await readFile(path).catch(() => Buffer.alloc(0))
  return { runs: countRuns(buf.subarray(since).toString('utf8')), end: buf.length }
}
