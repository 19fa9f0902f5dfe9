/**
 * The summarize step for one key, `<workload-space-id>/<edgeplacement-name>`: make the world match
 * "the EdgePlacement's status.summary says where its objects stand at its destinations, its Ready
 * condition says whether they all run there (placement-status.ts), its edges' problems are Events
 * in the space (events.ts), each selected object carries its executing count (and, run by exactly
 * one destination, that copy's status), and the Summarizers this key handles have current
 * StatusSummaries". It re-reads, through
 * the batch's reads, the space's placements and objects (scope.ts) and the mailboxes of the
 * destinations of the objects in scope (observe.ts) — never any other mailbox — classifies every
 * (object, destination) pair once, then writes only differences, each with a resourceVersion
 * precondition, so running twice or concurrently is safe. Annotations left on objects no placement
 * selects any more are removed (object-writes.ts). A placement of the space that cannot be read
 * (it or its slice does not decode) is an unknown, not an absence: while there is one, those
 * annotations stay and removal finalizers are lifted only where it is known to have no copies
 * (unknown-placements.ts). The deletion lifecycle (removals.ts): a selected object with a copy
 * in some mailbox gets the edge-removal finalizer; a terminating or unplaced object carrying it
 * loses it once no mailbox holds a copy sourced from the space; removals pending at live
 * destinations count in the summary and ask for a run again in REMOVAL_RECHECK_MS. Staleness
 * arrives without any event, so the result asks to run again when the next live destination would
 * turn stale (at least MIN_RECHECK_MS later), a minute later while a destination that turned stale
 * recently could come back without an event (liveness.ts `nextComeBackCheckIn`), or when an Event
 * change held back by its pace may be written.
 */
import type { Builtins } from '../../lib/apis/builtins.ts'
import type { PlacementSummary } from '../../lib/apis/edge-summary.ts'
import { clearDepartures } from '../../lib/deletion/departures.ts'
import { isNotFound } from '../../lib/errors.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import type { Registry } from '../../lib/kube/registry.ts'
import type { Logger } from '../../lib/log.ts'
import {
  type Destination,
  mailboxOfDestination,
  uniqueDestinations,
} from '../../lib/placement/destinations.ts'
import type { SliceCache } from '../../lib/placement/slice-cache.ts'
import type { SourceObject, SpaceSnapshot } from '../../lib/placement/types.ts'
import { type ReconcileResult, TerminalError } from '../../lib/reconcile/types.ts'
import type { ProjectionStore } from '../../lib/store/projection-types.ts'
import type { KvStore } from '../../lib/store/types.ts'
import type { SummarizedCopy } from '../../lib/summarize/aggregate.ts'
import { failedByReason, problemEvents } from '../../lib/summarize/edge-problems.ts'
import {
  isLive,
  nextComeBackCheckIn,
  nextStaleIn,
  STALE_AFTER_MS,
} from '../../lib/summarize/liveness.ts'
import { recordProblemEvents } from './events.ts'
import { parseWhereKey } from './names.ts'
import { conditions, writeWorkloads } from './object-writes.ts'
import { type Observations, observe } from './observe.ts'
import { pairFacts } from './pair-facts.ts'
import { type ReadyFacts, writePlacementStatus } from './placement-status.ts'
import { placementSummary } from './placement-summary.ts'
import type { Reads } from './reads.ts'
import {
  departingCounts,
  hasRemovalFinalizer,
  observeRemovals,
  REMOVAL_RECHECK_MS,
  type Removals,
  releaseDeparted,
} from './removals.ts'
import { objectKey, type Scope, scopeOf } from './scope.ts'
import { resultsOf, skipInvalid, writeStatusSummary } from './status-summaries.ts'
import { logKept, unknownsOf } from './unknown-placements.ts'
import { upsyncSummary } from './upsync-summary.ts'

/** The soonest a key asks to be run again for staleness. */
export const MIN_RECHECK_MS = 30_000

export type SummarizeDeps = {
  client: HubClient
  projections: ProjectionStore
  builtins: Builtins
  now: () => Date
  log: Logger
  registry(spaceId: string): Promise<Registry>
  /** The departures records (lib/deletion/departures.ts). */
  kv: KvStore
  /** The hub's decoded slice listings, kept between batches (lib/placement/slice-cache.ts). */
  slices?: SliceCache
}

async function spaceOrNone(reads: Reads, spaceId: string): Promise<SpaceSnapshot | undefined> {
  try {
    return await reads.snapshot.space(spaceId)
  } catch (e) {
    if (isNotFound(e)) return undefined
    throw e
  }
}

async function writeSummaries(
  deps: SummarizeDeps,
  at: { spaceId: string; scope: Scope; seen: Observations; nowMs: number }
): Promise<number> {
  const { spaceId, scope, seen, nowMs } = at
  let written = 0
  for (const h of scope.summarizers) {
    const copies: SummarizedCopy[] = h.matched.flatMap((o) =>
      scope.destinationsOf(o).map((d) => ({
        ...seen.facts(o, d),
        locationLabels: seen.destination(d).locationLabels,
      }))
    )
    const results = resultsOf(h.summarizer, h.matched.length, copies, nowMs)
    if (!results) skipInvalid(deps, spaceId, h.summarizer)
    else if (await writeStatusSummary(deps, spaceId, h.summarizer, results)) written++
  }
  return written
}

function departing(removals: Removals, name: string, objects: SourceObject[], own: Destination[]) {
  const selected = new Set(objects.map(objectKey))
  return departingCounts(removals, name, selected, new Set(own.map(mailboxOfDestination)))
}

function recheckIn(scope: Scope, seen: Observations, dests: Destination[], nowMs: number) {
  const beats = dests.map((d) => seen.destination(d).beatAt)
  const thresholds = [
    STALE_AFTER_MS,
    ...scope.summarizers.map((h) => (h.spec?.stalenessThresholdSeconds ?? 0) * 1000),
  ].filter((t) => t > 0)
  // a second past the moment a destination turns stale, so that it is stale by then
  const turning = thresholds
    .map((t) => nextStaleIn(beats, nowMs, t))
    .map((n) => (n === undefined ? n : n + 1000))
  const due = [...turning, nextComeBackCheckIn(beats, nowMs)].filter(
    (n): n is number => n !== undefined
  )
  return due.length > 0 ? Math.max(Math.min(...due), MIN_RECHECK_MS) : undefined
}

/**
 * The placement's own status (summary and Ready, one write) and its problem Events; what it did,
 * and when the Events' pace asks to run again.
 */
async function writePlacement(
  deps: SummarizeDeps,
  reads: Reads,
  at: {
    spaceId: string
    mine: NonNullable<Scope['mine']>
    own: Destination[]
    summary: PlacementSummary
    pairs: { condition: ReturnType<typeof conditions>; seen: Observations }
  }
): Promise<{ done: string[]; retryInMs?: number }> {
  const { spaceId, mine, own, summary, pairs } = at
  const ep = mine.placement
  const facts = await pairFacts(mine.objects, own, pairs.condition, pairs.seen)
  const ready: ReadyFacts = {
    generation: ep.metadata.generation ?? 0,
    failedByReason: failedByReason(facts.failed),
    outdated: facts.outdated,
    upsync: (ep.spec?.upsync ?? []).length > 0,
  }
  const done: string[] = []
  if (
    await writePlacementStatus(deps.client, { spaceId, ep, summary, facts: ready, now: deps.now })
  )
    done.push('status updated')
  const involved = {
    apiVersion: ep.apiVersion,
    kind: ep.kind,
    name: ep.metadata.name ?? '',
    ...(ep.metadata.uid ? { uid: ep.metadata.uid } : {}),
  }
  const wants = problemEvents(facts.failed, { involved, destinations: own.length })
  const events = await recordProblemEvents(deps, reads, { spaceId, ep, wants })
  if (events.written > 0) done.push(`events ${events.written}`)
  if (events.swept > 0) done.push(`events expired ${events.swept}`)
  return events.retryInMs !== undefined ? { done, retryInMs: events.retryInMs } : { done }
}

export async function reconcileSummarize(
  deps: SummarizeDeps,
  reads: Reads,
  key: string
): Promise<ReconcileResult> {
  const parsed = parseWhereKey(key)
  if (!parsed) throw new TerminalError(`"${key}" is not a summarize key (<space-id>/<name>)`)
  const { spaceId, name } = parsed
  const space = await spaceOrNone(reads, spaceId)
  if (!space) return { outcome: 'no such space' }
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
  const mine = scope.mine
  const own = uniqueDestinations(mine?.destinations ?? [])
  const seen = await observe(reads, deps.projections, { spaceId, pairs, destinations: own })
  const nowMs = deps.now().getTime()
  const condition = conditions(seen, nowMs)
  const placed = (o: SourceObject) => scope.placed.has(objectKey(o))
  // Every destination of the space only when some finalizer may be lifted; else its own.
  const lifting = space.objects.some(
    (o) => hasRemovalFinalizer(o) && (!!o.object.metadata.deletionTimestamp || !placed(o))
  )
  const reach = lifting
    ? uniqueDestinations([...placements.flatMap((p) => p.destinations), ...unknown.destinations])
    : own
  const removals = await observeRemovals(deps, reads, {
    spaceId,
    destinations: reach.map(mailboxOfDestination),
    nowMs,
  })
  const done: string[] = []
  let eventsRetry: number | undefined
  if (mine) {
    const summary = placementSummary({
      objects: mine.objects,
      destinations: own,
      live: (d) => isLive(seen.destination(d).beatAt, nowMs, STALE_AFTER_MS),
      condition,
      upsync: await upsyncSummary(deps, reads, mine.placement, own),
      departing: departing(removals, mine.placement.metadata.name ?? '', mine.objects, own),
    })
    const events = await writePlacement(deps, reads, {
      spaceId,
      mine,
      own,
      summary,
      pairs: { condition, seen },
    })
    done.push(...events.done)
    eventsRetry = events.retryInMs
  }
  const objects = await writeWorkloads(deps, {
    spaceId,
    scope,
    space,
    seen,
    condition,
    keepCounts: unknown.keepCounts,
  })
  if (objects.written > 0) done.push(`objects ${objects.written}`)
  const left = await releaseDeparted(deps.client, {
    spaceId,
    objects: space.objects,
    placed,
    removals,
    hold: unknown.holdLifting,
  })
  if (left.released > 0) done.push(`finalizers released ${left.released}`)
  logKept(deps.log, spaceId, { unknowns: unknown, counts: objects.kept, finalizers: left.held })
  if (objects.kept + left.held > 0)
    done.push(`kept ${objects.kept + left.held} (unknown placement)`)
  // Nothing waits in the space any more: its departures record (kept for the resync) can go.
  if (removals.recorded && left.waiting + left.held === 0 && removals.departed.length === 0)
    await clearDepartures(deps.kv, spaceId)
  const summaries = await writeSummaries(deps, { spaceId, scope, seen, nowMs })
  if (summaries > 0) done.push(`summaries ${summaries}`)
  const outcome = `${mine ? '' : 'no placement: '}${done.length > 0 ? done.join(', ') : 'unchanged'}`
  const stale = recheckIn(scope, seen, [...own, ...pairs.flatMap((p) => p.destinations)], nowMs)
  const waits = removals.pendingLive ? REMOVAL_RECHECK_MS : left.waiting > 0 ? MIN_RECHECK_MS : 0
  const recheck = Math.min(
    stale ?? Number.POSITIVE_INFINITY,
    waits || Number.POSITIVE_INFINITY,
    eventsRetry ?? Number.POSITIVE_INFINITY
  )
  return Number.isFinite(recheck) ? { outcome, requeueAfterMs: recheck } : { outcome }
}
