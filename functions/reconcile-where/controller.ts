/**
 * The where controller: keys are `<workload-space-id>/<edgeplacement-name>`. `listKeys` pages
 * through the union of every EdgePlacement in every space and the owner of every
 * SinglePlacementSlice an EdgePlacement owns (so the resync also removes orphaned slices, parts
 * included), in key order after the cursor. Events map to keys in `keys-for-event.ts`. Placements
 * and slices in `root:espw` or below it (a mailbox: what an edge upsynced or planted there) are
 * never keys, and a key of such a space runs to nothing (`isServiceProvider`,
 * lib/hub/service-provider-space.ts: the hub's cached answer per space id; without it, one asked
 * through the client).
 */
import { EDGE_PLACEMENTS, PLACEMENT_SLICES } from '../../lib/apis/gvr.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import {
  SERVICE_PROVIDER_OUTCOME,
  type ServiceProviderCheck,
  serviceProviderCheckOver,
  withoutServiceProvider,
} from '../../lib/hub/service-provider-space.ts'
import { type Logger, silentLogger } from '../../lib/log.ts'
import { owningPlacement, sliceWhereKey } from '../../lib/placement/slice-owner.ts'
import type { Controller } from '../../lib/reconcile/types.ts'
import { parseWhereKey, whereKeyOf } from './names.ts'
import { reconcileWhere, WHERE_STEP } from './reconcile.ts'

export { WHERE_STEP }

/** `log` gets one warning per invalid stored object the step skips (lib/apis/decode.ts). */
export function whereController(
  client: HubClient,
  log: Logger = silentLogger,
  isServiceProvider: ServiceProviderCheck = serviceProviderCheckOver(client)
): Controller {
  return {
    name: WHERE_STEP,
    async reconcile(key) {
      const space = parseWhereKey(key)?.spaceId
      if (space && (await isServiceProvider(space))) return { outcome: SERVICE_PROVIDER_OUTCOME }
      return reconcileWhere({ client, log }, key)
    },
    async listKeys(cursor, limit) {
      const [eps, sps] = await Promise.all([
        client.list('*', EDGE_PLACEMENTS).then((l) => withoutServiceProvider(l, isServiceProvider)),
        client
          .list('*', PLACEMENT_SLICES)
          .then((l) => withoutServiceProvider(l, isServiceProvider)),
      ])
      const placements = eps.map(whereKeyOf)
      const slices = sps.filter((s) => owningPlacement(s) !== undefined).map(sliceWhereKey)
      const all = [...new Set([...placements, ...slices])]
        .filter((k): k is string => !!k)
        .filter((k) => cursor === undefined || k > cursor)
        .sort()
      const keys = all.slice(0, limit)
      return all.length > limit ? { keys, next: keys[keys.length - 1] } : { keys }
    },
  }
}
