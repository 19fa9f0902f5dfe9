/**
 * The scale run's summarize pass (scale.ts): the summarize step once over the placement after the
 * fan-out, in pages over as many hook invocations as its budget asks, and the bound on those
 * invocations past which the run is reported as never completing (scale-budgets.ts).
 */
import { pageSize } from '../functions/reconcile-summarize/pages/page-size.ts'
import { profiled } from './cpu-profile.ts'
import { driveHook } from './fan-out-hooks.ts'
import type { HubClient } from './hub-client.ts'
import type { ScaleBudgets } from './scale-budgets.ts'

type Progress = (message: string) => void

/**
 * The invocations the summarize step may take for one placement of `objects` ConfigMaps over
 * `edges` destinations (functions/reconcile-summarize/pages/): one per page read (a hook
 * invocation reads as many pages as its budget has room for, at least one), one to combine them,
 * and one more per OBJECT_WRITES_PER_RUN of the objects' writes that did not fit beside it. Past
 * this the run is reported as never completing.
 */
export function summarizeBound(edges: number, objects: number): { pages: number; bound: number } {
  const size = pageSize(objects, undefined)
  const pages = edges <= size ? 1 : Math.ceil(edges / size)
  return { pages, bound: pages + 1 + Math.ceil(objects / OBJECT_WRITES_PER_RUN) }
}

/** Object writes (about six subrequests each) a summarize invocation always has room for. */
const OBJECT_WRITES_PER_RUN = 50

/**
 * The summarize step once over the placement, as the relay sends it after the fan-out: it reads
 * every destination's mailbox — in pages over several invocations past one page, each deferred
 * key sent again as the relay does — and writes the placement's status and the objects' counts,
 * the step whose budget ran short in issue 39. Returns the hook calls it took, the keys it
 * deferred and whether it finished within summarizeBound.
 */
export async function summarizeOnce(
  hub: HubClient,
  at: { key: string; edges: number; objects: number },
  progress: Progress
): Promise<ScaleBudgets['summarize'] & { deferred: number; completed: boolean }> {
  const { key, edges, objects } = at
  const { pages, bound } = summarizeBound(edges, objects)
  progress(`summarize: the placement over ${edges} destinations (${pages} pages)`)
  const run = await profiled('summarize', () =>
    driveHook(hub, 'summarize', [key], { batch: 1, calls: 1, maxDeferrals: bound - 1 })
  )
  const completed = run.abandoned.length === 0
  progress(
    completed
      ? `summarize: done in ${(run.elapsedMs / 1000).toFixed(1)} s, ${run.calls} calls`
      : `summarize: deferred ${run.deferred} times without an outcome; given up`
  )
  return {
    calls: run.calls,
    pages,
    bound,
    elapsedMs: run.elapsedMs,
    deferred: run.deferred,
    completed,
  }
}
