/**
 * The summarize controller: keys are the where step's, one per EdgePlacement
 * (`<workload-space-id>/<edgeplacement-name>`). `listKeys` pages through every EdgePlacement of
 * every space in key order after the cursor, so the resync revisits each (and notices destinations
 * that went stale without any event). Each batch of keys (a hook call or a resync page) runs in
 * one session sharing its reads (reads.ts), four keys at a time.
 */
import { EDGE_PLACEMENTS } from '../../lib/apis/gvr.ts'
import type { Controller } from '../../lib/reconcile/types.ts'
import { SUMMARIZE_STEP, whereKeyOf } from './names.ts'
import { createReads } from './reads.ts'
import { reconcileSummarize, type SummarizeDeps } from './reconcile.ts'

export { SUMMARIZE_STEP }

export function summarizeController(deps: SummarizeDeps): Controller {
  const reads = () => createReads(deps)
  return {
    name: SUMMARIZE_STEP,
    concurrency: 4,
    reconcile: (key) => reconcileSummarize(deps, reads(), key),
    session() {
      const shared = reads()
      return { reconcile: (key: string) => reconcileSummarize(deps, shared, key) }
    },
    async listKeys(cursor, limit) {
      const all = [...new Set((await deps.client.list('*', EDGE_PLACEMENTS)).map(whereKeyOf))]
        .filter((k): k is string => !!k && (cursor === undefined || k > cursor))
        .sort()
      const keys = all.slice(0, limit)
      return all.length > limit ? { keys, next: keys[keys.length - 1] } : { keys }
    },
  }
}
