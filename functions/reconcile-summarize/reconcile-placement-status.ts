/**
 * The part `placementStatus`: the key's EdgePlacement's `status.summary` (placement-summary.ts:
 * where each selected object stands at each of its destinations, the upsynced objects, the copies
 * still leaving, the Rollouts whose stamps they carry and at which revisions) and its Ready condition, one write (placement-status.ts) only when either
 * differs. Without a live placement of its own the key has nothing to write here.
 */
import type { EdgePlacementObject } from '../../lib/apis/edge-objects.ts'
import type { PlacementSummary } from '../../lib/apis/edge-summary.ts'
import { type Destination, mailboxOfDestination } from '../../lib/placement/destinations.ts'
import type { SourceObject } from '../../lib/placement/types.ts'
import { failedByReason } from '../../lib/summarize/edge-problems.ts'
import { isLive } from '../../lib/summarize/liveness.ts'
import type { PlacementStatusWant, ReadyFacts } from './placement-status.ts'
import { placementSummary } from './placement-summary.ts'
import { departingCounts, type Removals } from './removals.ts'
import type { RunInput } from './run-input.ts'
import { objectKey } from './scope.ts'
import { partResult, type SubReconciler } from './sub-reconciler.ts'

export type PlacementStatusPartDeps = {
  /** The placement's upsync summary over its destinations (upsync-summary.ts). */
  upsync(ep: EdgePlacementObject, own: Destination[]): Promise<PlacementSummary['upsync']>
  /** Writes the summary and Ready when they differ; true when it wrote. */
  write(w: Omit<PlacementStatusWant, 'now'>): Promise<boolean>
}

export type PlacementStatusInput = Pick<
  RunInput,
  | 'spaceId'
  | 'scope'
  | 'own'
  | 'seen'
  | 'condition'
  | 'nowMs'
  | 'rule'
  | 'removals'
  | 'facts'
  | 'standings'
>

/** Per Rollout some destination has a standing for, its destinations per lowest revision. */
function rolloutsOf(standings: RunInput['standings']): Map<string, Map<number, number>> {
  const out = new Map<string, Map<number, number>>()
  for (const row of standings?.values() ?? [])
    for (const [name, s] of row) {
      const revisions = out.get(name) ?? new Map<number, number>()
      revisions.set(s.revision, (revisions.get(s.revision) ?? 0) + 1)
      out.set(name, revisions)
    }
  return out
}

function departing(removals: Removals, name: string, objects: SourceObject[], own: Destination[]) {
  const selected = new Set(objects.map(objectKey))
  return departingCounts(removals, name, selected, new Set(own.map(mailboxOfDestination)))
}

export function placementStatusPart(
  deps: PlacementStatusPartDeps
): SubReconciler<PlacementStatusInput> {
  return {
    name: 'placementStatus',
    async run(input) {
      const { spaceId, own, seen, nowMs, removals, rule } = input
      const mine = input.scope.mine
      if (!mine) return partResult([])
      const ep = mine.placement
      const summary = placementSummary({
        objects: mine.objects,
        destinations: own,
        live: (d) => isLive(seen.destination(d).beatAt, nowMs, rule.staleAfterMs),
        condition: input.condition,
        upsync: await deps.upsync(ep, own),
        departing: departing(removals, ep.metadata.name ?? '', mine.objects, own),
        rollouts: rolloutsOf(input.standings),
      })
      const facts: ReadyFacts = {
        generation: ep.metadata.generation ?? 0,
        failedByReason: failedByReason(input.facts?.failed ?? []),
        outdated: input.facts?.outdated ?? 0,
        upsync: (ep.spec?.upsync ?? []).length > 0,
        staleAfterMs: rule.staleAfterMs,
      }
      return partResult(
        (await deps.write({ spaceId, ep, summary, facts })) ? ['status updated'] : []
      )
    },
  }
}
