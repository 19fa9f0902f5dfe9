/**
 * The summarize controller: keys are the where step's, one per EdgePlacement
 * (`<workload-space-id>/<edgeplacement-name>`). `listKeys` pages through every EdgePlacement of
 * every space in key order after the cursor, so the resync revisits each (and notices destinations
 * that went stale without any event), plus one key `<space-id>/edge-removal` per workload space
 * that has no EdgePlacement left but a departures record (lib/deletion/departures.ts): its
 * removals still wait for edges, and lifting the source finalizers needs some key of the space to
 * run. Each batch of keys (a hook call or a resync page) runs in one session sharing its reads
 * (reads.ts), four keys at a time. Placements in `root:espw` or below it (a mailbox: what an edge
 * upsynced or planted there) are never keys, and a key of such a space runs to nothing
 * (lib/hub/service-provider-space.ts, the hub's cached answer per space id).
 */
import { EDGE_PLACEMENTS } from '../../lib/apis/gvr.ts'
import { DEPARTURES_NS } from '../../lib/deletion/departures.ts'
import {
  SERVICE_PROVIDER_OUTCOME,
  serviceProviderSpaceCheck,
  withoutServiceProvider,
} from '../../lib/hub/service-provider-space.ts'
import type { Controller } from '../../lib/reconcile/types.ts'
import { parseWhereKey, SUMMARIZE_STEP, whereKey, whereKeyOf } from './names.ts'
import { createReads, type Reads } from './reads.ts'
import { reconcileSummarize, type SummarizeDeps } from './reconcile.ts'

export { SUMMARIZE_STEP }

/** The key name of a workload space with departures but no EdgePlacement. */
export const DEPARTURES_KEY_NAME = 'edge-removal'

export function summarizeController(deps: SummarizeDeps): Controller {
  const reads = () => createReads(deps)
  const isServiceProvider = serviceProviderSpaceCheck(deps.kv)
  const run = async (shared: () => Reads, key: string) => {
    const space = parseWhereKey(key)?.spaceId
    if (space && (await isServiceProvider(space))) return { outcome: SERVICE_PROVIDER_OUTCOME }
    return reconcileSummarize(deps, shared(), key)
  }
  return {
    name: SUMMARIZE_STEP,
    concurrency: 4,
    reconcile: (key) => run(reads, key),
    session() {
      const shared = reads()
      return { reconcile: (key: string) => run(() => shared, key) }
    },
    async listKeys(cursor, limit) {
      const listed = await deps.client.list('*', EDGE_PLACEMENTS)
      const placed = (await withoutServiceProvider(listed, isServiceProvider)).map(whereKeyOf)
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
