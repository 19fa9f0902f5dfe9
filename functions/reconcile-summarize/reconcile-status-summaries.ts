/**
 * The part `statusSummaries`: for each Summarizer the key handles (scope.ts), its results over the
 * copies of the placed objects it selects at each of their destinations (status-summaries.ts
 * `resultsOf`, over lib/summarize/aggregate.ts; stale past its own threshold, else the hub's), written to its StatusSummary only when they
 * differ; a Summarizer whose spec does not parse is skipped and logged.
 */
import type { SummaryResult } from '../../lib/apis/edge-summary.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import type { SummarizedCopy } from '../../lib/summarize/aggregate.ts'
import type { RunInput } from './run-input.ts'
import { resultsOf } from './status-summaries.ts'
import { partResult, type SubReconciler } from './sub-reconciler.ts'

export type StatusSummariesPartDeps = {
  /** Makes the Summarizer's StatusSummary hold `results`; what it did, if anything. */
  write(spaceId: string, summarizer: KubeObject, results: SummaryResult): Promise<unknown>
  /** Logs a Summarizer that cannot be evaluated. */
  skip(spaceId: string, summarizer: KubeObject): void
}

export type StatusSummariesInput = Pick<RunInput, 'spaceId' | 'scope' | 'seen' | 'nowMs' | 'rule'>

export function statusSummariesPart(
  deps: StatusSummariesPartDeps
): SubReconciler<StatusSummariesInput> {
  return {
    name: 'statusSummaries',
    async run({ spaceId, scope, seen, nowMs, rule }) {
      let written = 0
      for (const h of scope.summarizers) {
        const copies: SummarizedCopy[] = h.matched.flatMap((o) =>
          scope.destinationsOf(o).map((d) => ({
            ...seen.facts(o, d),
            locationLabels: seen.destination(d).locationLabels,
          }))
        )
        const at = { nowMs, staleAfterMs: rule.staleAfterMs }
        const results = resultsOf(h.summarizer, h.matched.length, copies, at)
        if (!results) deps.skip(spaceId, h.summarizer)
        else if (await deps.write(spaceId, h.summarizer, results)) written++
      }
      return partResult(written > 0 ? [`summaries ${written}`] : [])
    },
  }
}
