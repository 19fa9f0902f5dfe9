/**
 * The part `clearDepartures`: once nothing of the space waits at any edge — no object waits for
 * its finalizer or is held for an unknown placement (removals.ts `departedObjects`), and the
 * space's departures record lists no mailbox that still exists — the record (kept for the resync:
 * controller.ts lists a key for a space that has one) is deleted (lib/deletion/departures.ts).
 * Nothing in the outcome.
 */
import { departedObjects } from './removals.ts'
import type { RunInput } from './run-input.ts'
import { partResult, type SubReconciler } from './sub-reconciler.ts'

export type ClearDeparturesPartDeps = {
  /** Deletes the space's departures record. */
  clear(spaceId: string): Promise<void>
}

export type ClearDeparturesInput = Pick<RunInput, 'spaceId' | 'space' | 'placed' | 'removals'> & {
  unknown: Pick<RunInput['unknown'], 'holdLifting'>
}

export function clearDeparturesPart(
  deps: ClearDeparturesPartDeps
): SubReconciler<ClearDeparturesInput> {
  return {
    name: 'clearDepartures',
    async run({ spaceId, space, placed, removals, unknown }) {
      if (!removals.recorded || removals.departed.length > 0) return partResult([])
      const left = departedObjects({
        objects: space.objects,
        placed,
        removals,
        hold: unknown.holdLifting,
      })
      if (left.waiting + left.held === 0) await deps.clear(spaceId)
      return partResult([])
    },
  }
}
