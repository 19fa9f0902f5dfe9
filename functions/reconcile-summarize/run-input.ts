/**
 * What one summarize key's run reads before any part writes (sub-reconciler.ts): its workload
 * space, the space's live placements, Summarizers and unknown placements (unknown-placements.ts),
 * what each selects and where it goes (scope.ts), the mailboxes of the destinations of the objects
 * in scope (observe.ts) — never any other mailbox —, every (object, destination) pair classified
 * once (object-writes.ts `conditions`), the removals waiting in the mailboxes that may hold copies
 * sourced from the space (removals.ts: every destination of the space only when some finalizer may
 * be lifted, else the key's own) and, for the key's own placement, its failed and outdated pairs
 * (pair-facts.ts) and where its destinations stand for Rollouts (rollout-standings.ts). The parts
 * only read this; what one part writes is never an input of another.
 */

import type { Builtins } from '../../lib/apis/builtins.ts'
import { readDepartures } from '../../lib/deletion/departures.ts'
import { isNotFound } from '../../lib/errors.ts'
import { type Destination, uniqueDestinations } from '../../lib/placement/destinations.ts'
import type { SourceObject, SpaceSnapshot } from '../../lib/placement/types.ts'
import type { Standings } from '../../lib/rollout/standing-store.ts'
import { type Liveness, livenessOf } from '../../lib/summarize/liveness.ts'
import { whereKey } from './names.ts'
import type { Condition } from './object-writes.ts'
import { type ObservationDeps, observeRun, type Paging } from './observation.ts'
import type { Observations } from './observe.ts'
import { type PairFacts, pairFacts } from './pair-facts.ts'
import type { PlacementInfo, Reads } from './reads.ts'
import { hasRemovalFinalizer, type Removals } from './removals.ts'
import { rolloutStandings } from './rollout-standings.ts'
import { objectKey, type Scope, scopeOf } from './scope.ts'
import { type Unknowns, unknownsOf } from './unknown-placements.ts'

export type RunInput = {
  spaceId: string
  /** The summarize key, `<space-id>/<placement-name>`. */
  key: string
  space: SpaceSnapshot
  placements: readonly PlacementInfo[]
  scope: Scope
  /** The key's own placement's destinations, one per SyncTarget (none without a placement). */
  own: Destination[]
  /** Every destination whose heartbeat was read: the own ones and those of the pairs. */
  observed: Destination[]
  seen: Observations
  condition: Condition
  nowMs: number
  /** The hub's staleness rule (lib/summarize/liveness.ts), as configured. */
  rule: Liveness
  removals: Removals
  unknown: Unknowns
  /** Whether some live placement of the space selects the object. */
  placed(o: SourceObject): boolean
  /** The failed and outdated pairs of the key's own placement; undefined without one. */
  facts?: PairFacts
  /** Its destinations' standings for Rollouts (rollout-standings.ts); undefined without one. */
  standings?: Standings
  /** Set when the mailboxes were observed in pages (observation.ts). */
  paging?: Paging
}

export type RunInputDeps = ObservationDeps & {
  builtins: Builtins
  /** The staleness rule the hub is configured with (HubDeps.liveness); default: the default. */
  liveness?: Liveness | undefined
}

async function spaceOrNone(reads: Reads, spaceId: string): Promise<SpaceSnapshot | undefined> {
  try {
    return await reads.snapshot.space(spaceId)
  } catch (e) {
    if (isNotFound(e)) return undefined
    throw e
  }
}

/** The run's input for placement `name` of space `spaceId`; undefined when the space is gone. */
export async function readRunInput(
  deps: RunInputDeps,
  reads: Reads,
  key: { spaceId: string; name: string }
): Promise<RunInput | undefined> {
  const { spaceId, name } = key
  const space = await spaceOrNone(reads, spaceId)
  if (!space) return undefined
  const [placements, summarizers, unknown] = await Promise.all([
    reads.placementsIn(spaceId),
    reads.summarizers(spaceId),
    reads.unknownIn(spaceId).then(unknownsOf),
  ])
  const scope = scopeOf({ name, space, placements, summarizers, builtins: deps.builtins })
  const pairs = [
    ...(scope.mine?.objects ?? []),
    ...scope.summarizers.flatMap((h) => h.matched),
  ].map((object) => ({ object, destinations: scope.destinationsOf(object) }))
  const own = uniqueDestinations(scope.mine?.destinations ?? [])
  const nowMs = deps.now().getTime()
  const rule = livenessOf(deps)
  const placed = (o: SourceObject) => scope.placed.has(objectKey(o))
  // Every destination of the space only when some finalizer may be lifted; else its own.
  const lifting = space.objects.some(
    (o) => hasRemovalFinalizer(o) && (!!o.object.metadata.deletionTimestamp || !placed(o))
  )
  const reach = lifting
    ? uniqueDestinations([...placements.flatMap((p) => p.destinations), ...unknown.destinations])
    : own
  const { seen, condition, removals, observed, paging } = await observeRun(deps, reads, {
    key: whereKey(spaceId, name),
    spaceId,
    pairs,
    own,
    reach,
    record: await readDepartures(deps.kv, spaceId),
    ...(scope.mine ? { placement: scope.mine.placement } : {}),
    nowMs,
    rule,
  })
  const facts = scope.mine ? await pairFacts(scope.mine.objects, own, condition, seen) : undefined
  const standings = scope.mine
    ? rolloutStandings(scope.mine.objects, own, condition, seen)
    : undefined
  return {
    spaceId,
    key: whereKey(spaceId, name),
    space,
    placements,
    scope,
    own,
    observed,
    seen,
    condition,
    nowMs,
    rule,
    removals,
    unknown,
    placed,
    ...(facts ? { facts } : {}),
    ...(standings ? { standings } : {}),
    ...(paging ? { paging } : {}),
  }
}
