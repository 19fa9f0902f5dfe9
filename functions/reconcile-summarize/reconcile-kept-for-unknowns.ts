/**
 * The part `keptForUnknowns`: what the run left in place because some placement of the space
 * cannot be read (unknown-placements.ts) — executing counts of objects placed nowhere
 * (`keepCounts`: reconcile-workload-writes.ts leaves them) and finalizers that could be lifted
 * (`holdLifting`: reconcile-release-finalizers.ts holds them) — counted in the outcome and logged
 * once per run that kept something. It writes nothing.
 */
import type { Logger } from '../../lib/log.ts'
import { deselectedWithCount } from './reconcile-workload-writes.ts'
import { departedObjects } from './removals.ts'
import type { RunInput } from './run-input.ts'
import { partResult, type SubReconciler } from './sub-reconciler.ts'
import { logKept } from './unknown-placements.ts'

export type KeptForUnknownsInput = Pick<
  RunInput,
  'spaceId' | 'space' | 'scope' | 'placed' | 'removals' | 'unknown'
>

export function keptForUnknownsPart(deps: { log: Logger }): SubReconciler<KeptForUnknownsInput> {
  return {
    name: 'keptForUnknowns',
    async run({ spaceId, space, scope, placed, removals, unknown }) {
      const counts = unknown.keepCounts ? deselectedWithCount(space, scope).length : 0
      const { held } = departedObjects({
        objects: space.objects,
        placed,
        removals,
        hold: unknown.holdLifting,
      })
      logKept(deps.log, spaceId, { unknowns: unknown, counts, finalizers: held })
      return partResult(counts + held > 0 ? [`kept ${counts + held} (unknown placement)`] : [])
    },
  }
}
