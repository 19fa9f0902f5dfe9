/**
 * The scale run's budget figures (issue 39): per size of the in-process runs, per invocation kind
 * (each reconcile step's hook, the API, watches, the cron), how many invocations ran, how many
 * went past their subrequest budget, how many of those overruns a write in progress sent (the
 * reservation makes that 0: a write and its change-log entry are one outcome), and how many
 * writes were refused before they sent anything — the work each step deferred to a next run
 * instead. Rendered as report lines and summed into one goal: overruns that write, target 0.
 */
import type { KindSummary } from './invocation-log.ts'

export type ScaleBudgets = {
  edges: number
  kinds: KindSummary[]
  /** Keys each step's hook deferred to a later call (its budget ran short), by step. */
  deferred: Record<string, number>
  /** Steps whose key was deferred again and again and never answered (the run gave up). */
  unfinished: string[]
  /**
   * The summarize run of the placement: hook calls (invocations) it took, the pages it was
   * observed in, the most calls it may take (bench/scale-summarize.ts summarizeBound), how long it took.
   */
  summarize?: { calls: number; pages: number; bound: number; elapsedMs: number }
}

/** ", N keys deferred" for a step's hook, empty for other kinds. */
function deferredOf(b: ScaleBudgets, kind: string): string {
  const n = kind.startsWith('hook:') ? b.deferred[kind.slice('hook:'.length)] : undefined
  return n === undefined ? '' : `, ${n} keys deferred`
}

export function renderScaleBudgets(all: readonly ScaleBudgets[]): string[] {
  const lines: string[] = []
  for (const b of all) {
    lines.push(
      `budgets at ${b.edges} edges (runs, over budget, of those while writing, writes refused, keys deferred):`
    )
    for (const k of b.kinds)
      lines.push(
        `  ${k.kind.padEnd(20)} ${k.invocations} runs, over ${k.exceeded} (in writes ${k.overInWrites}), refused ${k.refused}${deferredOf(b, k.kind)}`
      )
    const sum = b.summarize
    if (sum)
      lines.push(
        `  summarize of the placement: ${sum.calls} invocations (${sum.pages} pages; at most ${sum.bound}), ${(sum.elapsedMs / 1000).toFixed(1)} s`
      )
    for (const step of b.unfinished)
      lines.push(`  ${step}: its key was deferred again and again and never ran to an outcome`)
  }
  return lines
}

/** Overruns a write sent at the largest size, summed over the kinds (null: no run). */
export function overrunsInWrites(all: readonly ScaleBudgets[]): {
  value: number | null
  target: number
  edges: number | null
} {
  const last = all[all.length - 1]
  return {
    value: last ? last.kinds.reduce((n, k) => n + k.overInWrites, 0) : null,
    target: 0,
    edges: last?.edges ?? null,
  }
}
