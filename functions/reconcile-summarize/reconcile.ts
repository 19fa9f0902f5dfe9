/**
 * The summarize step for one key, `<workload-space-id>/<edgeplacement-name>`: make the world match
 * "the EdgePlacement's status.summary says where its objects stand at its destinations, its Ready
 * condition says whether they all run there, its edges' problems are Events in the space, each
 * selected object carries its executing count and the status its edges report (one edge's, or
 * aggregated over several: returned-status.ts), finalizers wait exactly as long as copies do, and
 * the Summarizers this key handles have current StatusSummaries". A run reads its world once
 * (run-input.ts), then runs the parts of `summarizeParts` in order (sub-reconciler.ts; README.md
 * lists them), each writing only differences with a resourceVersion precondition, so running twice
 * or concurrently is safe. The outcome joins what the parts did ("unchanged" when nothing; "no
 * placement: " first when the key's placement is gone, its objects' counts and finalizers still
 * tended), and the run asks to be run again at the soonest any part asked for.
 */

import type { Builtins } from '../../lib/apis/builtins.ts'
import { clearDepartures } from '../../lib/deletion/departures.ts'
import { releaseFinalizer } from '../../lib/deletion/source-finalizer.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import type { Registry } from '../../lib/kube/registry.ts'
import type { Logger } from '../../lib/log.ts'
import type { SliceCache } from '../../lib/placement/slice-cache.ts'
import { type ReconcileResult, TerminalError } from '../../lib/reconcile/types.ts'
import { dropStandings, writeStandings } from '../../lib/rollout/standing-store.ts'
import type { ProjectionStore } from '../../lib/store/projection-types.ts'
import type { KvStore } from '../../lib/store/types.ts'
import type { Liveness } from '../../lib/summarize/liveness.ts'
import { recordProblemEvents } from './events.ts'
import { parseWhereKey } from './names.ts'
import type { Paging } from './observation.ts'
import { writePlacementStatus } from './placement-status.ts'
import type { Reads } from './reads.ts'
import { clearDeparturesPart } from './reconcile-clear-departures.ts'
import { keptForUnknownsPart } from './reconcile-kept-for-unknowns.ts'
import { placementStatusPart } from './reconcile-placement-status.ts'
import { problemEventsPart } from './reconcile-problem-events.ts'
import { releaseFinalizersPart } from './reconcile-release-finalizers.ts'
import { rolloutStandingsPart } from './reconcile-rollout-standings.ts'
import { stalenessPart } from './reconcile-staleness.ts'
import { statusSummariesPart } from './reconcile-status-summaries.ts'
import { workloadWritesPart } from './reconcile-workload-writes.ts'
import { type RunInput, readRunInput } from './run-input.ts'
import { skipInvalid, writeStatusSummary } from './status-summaries.ts'
import { runInOrder, type SubReconciler } from './sub-reconciler.ts'
import { upsyncSummary } from './upsync-summary.ts'
import { writeWorkload } from './workload-writes.ts'

export { MIN_RECHECK_MS } from './reconcile-staleness.ts'

export type SummarizeDeps = {
  client: HubClient
  projections: ProjectionStore
  builtins: Builtins
  now: () => Date
  log: Logger
  registry(spaceId: string): Promise<Registry>
  /** The departures records (lib/deletion/departures.ts), the pages, the Rollouts' standings. */
  kv: KvStore
  /** The hub's decoded slice listings, kept between batches (lib/placement/slice-cache.ts). */
  slices?: SliceCache
  /** The hub's staleness rule (HubDeps.liveness; lib/summarize/liveness.ts), default when absent. */
  liveness?: Liveness | undefined
  /** Mailboxes per page of a paged observation (tests; default pages/page-size.ts). */
  pageSize?: number | undefined
  /** Pages one run reads at most (tests; default as many as its budget has room for). */
  pagesPerRun?: number | undefined
}

/**
 * The parts of a run, in calling order, each given only what it uses; with `paging` (the run
 * observed its mailboxes in pages: observation.ts) the upsync summary is the pages'.
 */
export function summarizeParts(
  deps: SummarizeDeps,
  reads: Reads,
  paging?: Paging
): SubReconciler<RunInput>[] {
  return [
    rolloutStandingsPart({
      write: (key, standings) => writeStandings(deps.kv, key, standings),
      drop: (key) => dropStandings(deps.kv, key),
    }),
    placementStatusPart({
      upsync: (ep, own) =>
        paging ? Promise.resolve(paging.upsync) : upsyncSummary(deps, reads, ep, own),
      write: (w) => writePlacementStatus(deps.client, { ...w, now: deps.now }),
    }),
    problemEventsPart({ record: (w) => recordProblemEvents(deps, reads, w) }),
    workloadWritesPart({
      kinds: async (spaceId) => {
        const registry = await deps.registry(spaceId)
        return {
          hasStatus: (o) => registry.byResource(o.group, o.resource)?.subresources.status ?? false,
        }
      },
      write: (spaceId, o, want) => writeWorkload(deps, spaceId, o, want),
    }),
    releaseFinalizersPart({ release: (spaceId, o) => releaseFinalizer(deps.client, spaceId, o) }),
    keptForUnknownsPart(deps),
    clearDeparturesPart({
      clear: async (spaceId) => {
        await clearDepartures(deps.kv, spaceId)
      },
    }),
    statusSummariesPart({
      write: (spaceId, summarizer, results) =>
        writeStatusSummary(deps, spaceId, summarizer, results),
      skip: (spaceId, summarizer) => skipInvalid(deps, spaceId, summarizer),
    }),
    stalenessPart,
  ]
}

export async function reconcileSummarize(
  deps: SummarizeDeps,
  reads: Reads,
  key: string
): Promise<ReconcileResult> {
  const parsed = parseWhereKey(key)
  if (!parsed) throw new TerminalError(`"${key}" is not a summarize key (<space-id>/<name>)`)
  const input = await readRunInput(deps, reads, parsed)
  if (!input) return { outcome: 'no such space' }
  const { paging } = input
  const ran = await runInOrder(summarizeParts(deps, reads, paging), input)
  await paging?.done()
  const what = ran.done.length > 0 ? ran.done.join(', ') : 'unchanged'
  const pages = paging
    ? ` (${paging.pages} pages${paging.changed > 0 ? `, ${paging.changed} changed since read` : ''})`
    : ''
  const outcome = `${input.scope.mine ? '' : 'no placement: '}${what}${pages}`
  const requeues = [ran.requeueAfterMs, paging?.requeueAfterMs].filter((n) => n !== undefined)
  return requeues.length > 0 ? { outcome, requeueAfterMs: Math.min(...requeues) } : { outcome }
}
