/**
 * The part `problemEvents`: the key's placement's failed pairs as Warning Events in the workload
 * space (lib/summarize/edge-problems.ts decides which, events.ts writes them at their pace). It
 * asks to run again when the pace holds a change back. Without a live placement of its own the
 * key records nothing (its Events go with the placement: ownerReferences).
 */
import type { EdgePlacementObject } from '../../lib/apis/edge-objects.ts'
import { type ProblemEvent, problemEvents } from '../../lib/summarize/edge-problems.ts'
import type { EventsDone } from './events.ts'
import type { RunInput } from './run-input.ts'
import { partResult, type SubReconciler } from './sub-reconciler.ts'

export type ProblemEventsPartDeps = {
  /** Brings the placement's Events in line with `wants` (events.ts recordProblemEvents). */
  record(w: {
    spaceId: string
    ep: EdgePlacementObject
    wants: readonly ProblemEvent[]
  }): Promise<EventsDone>
}

export type ProblemEventsInput = Pick<RunInput, 'spaceId' | 'scope' | 'own' | 'facts'>

export function problemEventsPart(deps: ProblemEventsPartDeps): SubReconciler<ProblemEventsInput> {
  return {
    name: 'problemEvents',
    async run({ spaceId, scope, own, facts }) {
      const ep = scope.mine?.placement
      if (!ep) return partResult([])
      const involved = {
        apiVersion: ep.apiVersion,
        kind: ep.kind,
        name: ep.metadata.name ?? '',
        ...(ep.metadata.uid ? { uid: ep.metadata.uid } : {}),
      }
      const wants = problemEvents(facts?.failed ?? [], { involved, destinations: own.length })
      const events = await deps.record({ spaceId, ep, wants })
      const done: string[] = []
      if (events.written > 0) done.push(`events ${events.written}`)
      if (events.swept > 0) done.push(`events expired ${events.swept}`)
      return partResult(done, events.retryInMs)
    },
  }
}
