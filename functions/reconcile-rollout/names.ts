/**
 * The rollout step's name and keys (`<workload-space-id>/<rollout-name>`); the key format lives in
 * lib/reconcile/keys.ts, shared with the watch relay.
 */
export { parseRolloutKey, rolloutKey, rolloutKeyOf } from '../../lib/reconcile/keys.ts'

/** The step's name: its hook is `/hooks/rollout`. */
export const ROLLOUT_STEP = 'rollout'

/** The field manager of the Rollout's status (its one writer). */
export const ROLLOUT_MANAGER = 'edgeplane-rollout'
