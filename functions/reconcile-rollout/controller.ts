/**
 * The rollout controller: keys are `<workload-space-id>/<rollout-name>`. `listKeys` pages through
 * every Rollout of every space (so the resync re-runs those that wait on a settle, soak or
 * deadline even when no event comes), in key order after the cursor. Rollouts in `root:espw` or
 * below (a mailbox) are no keys, and a key of such a space runs to nothing.
 */
import { ROLLOUTS } from '../../lib/apis/gvr.ts'
import {
  SERVICE_PROVIDER_OUTCOME,
  type ServiceProviderCheck,
  serviceProviderCheckOver,
  withoutServiceProvider,
} from '../../lib/hub/service-provider-space.ts'
import type { Controller } from '../../lib/reconcile/types.ts'
import { parseRolloutKey, ROLLOUT_STEP, rolloutKeyOf } from './names.ts'
import { type RolloutDeps, reconcileRollout } from './reconcile.ts'

export { ROLLOUT_STEP }

export function rolloutController(
  deps: RolloutDeps,
  isServiceProvider: ServiceProviderCheck = serviceProviderCheckOver(deps.client)
): Controller {
  return {
    name: ROLLOUT_STEP,
    async reconcile(key) {
      const space = parseRolloutKey(key)?.spaceId
      if (space && (await isServiceProvider(space))) return { outcome: SERVICE_PROVIDER_OUTCOME }
      return reconcileRollout(deps, key)
    },
    async listKeys(cursor, limit) {
      const rollouts = await withoutServiceProvider(
        await deps.client.list('*', ROLLOUTS),
        isServiceProvider
      )
      const all = [...new Set(rollouts.map(rolloutKeyOf))]
        .filter((k): k is string => !!k)
        .filter((k) => cursor === undefined || k > cursor)
        .sort()
      const keys = all.slice(0, limit)
      return all.length > limit ? { keys, next: keys[keys.length - 1] } : { keys }
    },
  }
}
