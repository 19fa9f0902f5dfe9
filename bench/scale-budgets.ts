/**
 * The scale run's budget figures (issue 39): per size of the in-process runs, per invocation kind
 * (each reconcile step's hook, the API, watches, the cron), how many invocations ran, how many
 * went past their subrequest budget, how many of those overruns a write in progress sent (the
 * reservation makes that 0: a write and its change-log entry are one outcome), and how many
 * writes were refused before they sent anything — the work each step deferred to a next run
 * instead. Rendered as report lines and summed into one goal: overruns that write, target 0.
 */
import type { KindSummary } from './invocation-log.ts'

export type ScaleBudgets = { edges: number; kinds: KindSummary[] }

export function renderScaleBudgets(all: readonly ScaleBudgets[]): string[] {
  const lines: string[] = []
  for (const b of all) {
    lines.push(`budgets at ${b.edges} edges (runs, over budget, of those while writing, refused):`)
    for (const k of b.kinds)
      lines.push(
        `  ${k.kind.padEnd(20)} ${k.invocations} runs, over ${k.exceeded} (in writes ${k.overInWrites}), refused ${k.refused}`
      )
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
