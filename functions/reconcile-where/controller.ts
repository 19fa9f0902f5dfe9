/**
 * The where controller: keys are `<workload-space-id>/<edgeplacement-name>`. `listKeys` pages
 * through the union of every EdgePlacement in every space and the owner of every
 * SinglePlacementSlice an EdgePlacement owns (so the resync also removes orphaned slices, parts
 * included), in key order after the cursor. Events map to keys in `keys-for-event.ts`.
 */
import { EDGE_PLACEMENTS, PLACEMENT_SLICES } from '../../lib/apis/gvr.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import { type Logger, silentLogger } from '../../lib/log.ts'
import { owningPlacement, sliceWhereKey } from '../../lib/placement/slice-owner.ts'
import type { Controller } from '../../lib/reconcile/types.ts'
import { whereKeyOf } from './names.ts'
import { reconcileWhere, WHERE_STEP } from './reconcile.ts'

export { WHERE_STEP }

/** `log` gets one warning per invalid stored object the step skips (lib/apis/decode.ts). */
export function whereController(client: HubClient, log: Logger = silentLogger): Controller {
  return {
    name: WHERE_STEP,
    reconcile: (key) => reconcileWhere({ client, log }, key),
    async listKeys(cursor, limit) {
      const placements = (await client.list('*', EDGE_PLACEMENTS)).map(whereKeyOf)
      const slices = (await client.list('*', PLACEMENT_SLICES))
        .filter((s) => owningPlacement(s) !== undefined)
        .map(sliceWhereKey)
      const all = [...new Set([...placements, ...slices])]
        .filter((k): k is string => !!k)
        .filter((k) => cursor === undefined || k > cursor)
        .sort()
      const keys = all.slice(0, limit)
      return all.length > limit ? { keys, next: keys[keys.length - 1] } : { keys }
    },
  }
}
