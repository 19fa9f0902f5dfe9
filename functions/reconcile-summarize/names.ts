/**
 * Summarize-step names: keys are the where step's (`<workload-space-id>/<edgeplacement-name>`,
 * one EdgePlacement; the format lives in lib/reconcile/keys.ts, shared with the watch relay), the
 * annotation the step keeps on each selected workload object, and the step's name (the webhook
 * path `/hooks/summarize` and the resync cursor).
 */
export { parseWhereKey, whereKey, whereKeyOf } from '../../lib/reconcile/keys.ts'

export const SUMMARIZE_STEP = 'summarize'

/** On a workload object: how many destinations run it (its copy applied or ready there). */
export const EXECUTING_COUNT_ANNOTATION = 'kubestellar.io/executing-count'
