/**
 * Where-step keys (`<workload-space-id>/<edgeplacement-name>`); the format lives in
 * lib/reconcile/keys.ts, shared with the watch relay.
 */
export { parseWhereKey, whereKey, whereKeyOf } from '../../lib/reconcile/keys.ts'
