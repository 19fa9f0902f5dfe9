/**
 * How a run observes the mailboxes it reads (run-input.ts): the pairs' copies, the removals of
 * its reach and of the departures record, and its own destinations' upsynced objects. A plan
 * (pages/plan.ts) that fits one page is read at once, as it always was — observe.ts, the
 * conditions of object-writes.ts, removals.ts — and keeps nothing; a larger one is observed in
 * pages over several invocations (pages/paged-input.ts) and put together from them
 * (pages/combined.ts), which the parts read just the same. A key whose placement is gone drops
 * the pages it may have kept.
 */
import type { EdgePlacementObject } from '../../lib/apis/edge-objects.ts'
import { currentInvocation } from '../../lib/budget/frames.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import type { Registry } from '../../lib/kube/registry.ts'
import { type Destination, mailboxOfDestination } from '../../lib/placement/destinations.ts'
import { parseMailboxName } from '../../lib/reconcile/keys.ts'
import type { ProjectionStore } from '../../lib/store/projection-types.ts'
import type { KvStore } from '../../lib/store/types.ts'
import type { Liveness } from '../../lib/summarize/liveness.ts'
import { type Condition, conditions } from './object-writes.ts'
import { type Observations, observe, type Pair } from './observe.ts'
import type { Upsync } from './pages/page-facts.ts'
import { dropAll } from './pages/page-store.ts'
import { observePaged } from './pages/paged-input.ts'
import { planObservation } from './pages/plan.ts'
import type { MailboxView, Reads } from './reads.ts'
import { type Departures, observeRemovals, type Removals, removalsOf } from './removals.ts'
import { upsyncSummary } from './upsync-summary.ts'

export type ObservationDeps = {
  client: HubClient
  registry(spaceId: string): Promise<Registry>
  projections: ProjectionStore
  kv: KvStore
  now: () => Date
  /** Mailboxes per page (tests); default pages/page-size.ts for the plan and the budget. */
  pageSize?: number | undefined
  /** Pages one run reads at most (tests); default as many as the budget has room for. */
  pagesPerRun?: number | undefined
}

export type ObservationAsk = {
  /** The summarize key: its pages are stored under it. */
  key: string
  spaceId: string
  pairs: readonly Pair[]
  own: readonly Destination[]
  /** The destinations whose removals are read (own, or every one of the space). */
  reach: readonly Destination[]
  record: Departures
  /** The key's own placement, when live. */
  placement?: EdgePlacementObject
  nowMs: number
  rule: Liveness
}

/** What a paged observation adds to a run: its upsync summary, and the end of its round. */
export type Paging = {
  pages: number
  /** Pages combined although they changed since they were read. */
  changed: number
  upsync?: Upsync
  requeueAfterMs?: number
  done(): Promise<void>
}

export type Observed = {
  seen: Observations
  condition: Condition
  removals: Removals
  /** Every destination whose heartbeat was read. */
  observed: Destination[]
  paging?: Paging
}

/** One destination per mailbox of `lists`, each list (most pairs share theirs) looked at once. */
function uniqueOf(lists: readonly (readonly Destination[])[]): Destination[] {
  const out = new Map<string, Destination>()
  for (const list of new Set(lists))
    for (const d of list) {
      const mb = mailboxOfDestination(d)
      if (!out.has(mb)) out.set(mb, d)
    }
  return [...out.values()]
}

export async function observeRun(
  deps: ObservationDeps,
  reads: Reads,
  ask: ObservationAsk
): Promise<Observed> {
  const { spaceId, pairs, own, reach, record, nowMs, rule, placement } = ask
  const sets = placement?.spec?.upsync ?? []
  const grant = sets.length > 0 ? await reads.snapshot.grantOf(spaceId) : undefined
  const removalNames = [...reach.map(mailboxOfDestination), ...record.mailboxes]
  const upsync = { destinations: own, sets, all: !!grant?.upsyncAllNamespaces, granted: !!grant }
  const planOf = (pageSize?: number) =>
    planObservation({
      spaceId,
      pairs,
      removals: removalNames,
      upsync,
      budget: currentInvocation()?.budget,
      ...(pageSize !== undefined ? { pageSize } : {}),
    })
  const plan = await planOf(deps.pageSize)
  if (plan.pages.length <= 1) {
    const seen = await observe(reads, deps.projections, { spaceId, pairs, destinations: own })
    const condition = conditions(seen, nowMs, rule)
    const at = { spaceId, destinations: removalNames, nowMs, rule, record }
    const removals = await observeRemovals(deps, reads, at)
    if (!placement) await dropAll(deps.kv, ask.key)
    return {
      seen,
      condition,
      removals,
      observed: [...own, ...pairs.flatMap((p) => p.destinations)],
    }
  }
  const byMailbox = new Map(own.map((d) => [mailboxOfDestination(d), d]))
  const observed = uniqueOf([own, ...pairs.map((p) => p.destinations)])
  const paged = await observePaged(
    {
      ...deps,
      ...(placement && sets.length > 0
        ? {
            upsync: async (mailboxes: readonly string[], views: ReadonlyMap<string, MailboxView>) =>
              (await upsyncSummary(
                deps,
                { ...reads, mailbox: async (name) => views.get(name) },
                placement,
                mailboxes.flatMap((mb) => byMailbox.get(mb) ?? [])
              )) ?? { count: 0, destinations: 0, objects: [] },
          }
        : {}),
    },
    reads,
    {
      key: ask.key,
      plan,
      replan: (size) => planOf(size),
      combine: { clusters: [...new Set(observed.map((d) => d.cluster))], nowMs, rule },
    }
  )
  const exists = new Set<string>()
  for (const name of new Set(removalNames)) {
    const dest = parseMailboxName(name)
    if (dest && (await reads.inventory(dest.inventorySpaceId)).syncTargets.has(dest.syncTargetUid))
      exists.add(name)
  }
  const names = [...new Set(removalNames)].sort()
  const removals = await removalsOf(deps, reads, {
    spaceId,
    destinations: removalNames,
    nowMs,
    rule,
    record,
    holds: paged.combined.holds(names, (mb) => exists.has(mb)),
  })
  const { seen, condition, upsync: merged } = paged.combined
  return {
    seen,
    condition,
    removals,
    observed,
    paging: {
      pages: paged.plan.pages.length,
      changed: paged.changed,
      ...(sets.length > 0 ? { upsync: merged ?? { count: 0, destinations: 0, objects: [] } } : {}),
      ...(paged.requeueAfterMs !== undefined ? { requeueAfterMs: paged.requeueAfterMs } : {}),
      done: paged.done,
    },
  }
}
