/**
 * The part `releaseFinalizers`: the deletion lifecycle's last transition as the summarize step
 * makes it (lib/deletion/lifecycle.ts). The space's objects that carry the edge-removal finalizer
 * and are terminating or placed nowhere lose it once no mailbox holds a copy sourced from the
 * space (removals.ts `departedObjects`), unless some placement of the space is unknown and may
 * have copies in mailboxes not read (unknown-placements.ts `holdLifting`). Removals pending at a
 * live destination ask for a run again in REMOVAL_RECHECK_MS (an edge's confirmation at a mailbox
 * the placement no longer reaches wakes no key), objects still waiting in MIN_RECHECK_MS.
 */
import type { SourceObject } from '../../lib/placement/types.ts'
import { MIN_RECHECK_MS } from './reconcile-staleness.ts'
import { departedObjects, REMOVAL_RECHECK_MS } from './removals.ts'
import type { RunInput } from './run-input.ts'
import { partResult, type SubReconciler } from './sub-reconciler.ts'

export type ReleaseFinalizersPartDeps = {
  /** Lifts the finalizer from `o` (lib/deletion/source-finalizer.ts); true when it did. */
  release(spaceId: string, o: SourceObject): Promise<boolean>
}

export type ReleaseFinalizersInput = Pick<RunInput, 'spaceId' | 'space' | 'placed' | 'removals'> & {
  unknown: Pick<RunInput['unknown'], 'holdLifting'>
}

export function releaseFinalizersPart(
  deps: ReleaseFinalizersPartDeps
): SubReconciler<ReleaseFinalizersInput> {
  return {
    name: 'releaseFinalizers',
    async run({ spaceId, space, placed, removals, unknown }) {
      const left = departedObjects({
        objects: space.objects,
        placed,
        removals,
        hold: unknown.holdLifting,
      })
      let released = 0
      for (const o of left.release) if (await deps.release(spaceId, o)) released++
      const waits = removals.pendingLive
        ? REMOVAL_RECHECK_MS
        : left.waiting > 0
          ? MIN_RECHECK_MS
          : undefined
      return partResult(released > 0 ? [`finalizers released ${released}`] : [], waits)
    },
  }
}
