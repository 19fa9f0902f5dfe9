/**
 * The summarize controller: keys are the where step's, one per EdgePlacement
 * (`<workload-space-id>/<edgeplacement-name>`). `listKeys` pages through every EdgePlacement of
 * every space in key order after the cursor, so the resync revisits each (and notices destinations
 * that went stale without any event), plus one key `<space-id>/edge-removal` per workload space
 * that has no EdgePlacement left but a departures record (lib/deletion/departures.ts): its
 * removals still wait for edges, and lifting the source finalizers needs some key of the space to
 * run. Each batch of keys (a hook call or a resync page) runs in one session sharing its reads
 * (reads.ts), four keys at a time.
 */
import { EDGE_PLACEMENTS } from '../../lib/apis/gvr.ts'
import { DEPARTURES_NS } from '../../lib/deletion/departures.ts'
import type { Controller } from '../../lib/reconcile/types.ts'
import { SUMMARIZE_STEP, whereKey, whereKeyOf } from './names.ts'
import { createReads } from './reads.ts'
import { reconcileSummarize, type SummarizeDeps } from './reconcile.ts'

export { SUMMARIZE_STEP }

/** The key name of a workload space with departures but no EdgePlacement. */
export const DEPARTURES_KEY_NAME = 'edge-removal'

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
      const placed = (await deps.client.list('*', EDGE_PLACEMENTS)).map(whereKeyOf)
      const spaces = new Set(placed.map((k) => k?.split('/')[0]))
      const departed = (await deps.kv.list(DEPARTURES_NS))
        .filter((e) => !spaces.has(e.key))
        .map((e) => whereKey(e.key, DEPARTURES_KEY_NAME))
      const all = [...new Set([...placed, ...departed])]
        .filter((k): k is string => !!k && (cursor === undefined || k > cursor))
        .sort()
      const keys = all.slice(0, limit)
      return all.length > limit ? { keys, next: keys[keys.length - 1] } : { keys }
    },
  }
}
