/**
 * What one summarize run has to observe, as pages: every mailbox it reads — those of the pairs'
 * destinations (with the copies asked for there), those the removals look at (its own
 * destinations or, while a finalizer may be lifted, every destination of the space) and those the
 * departures record names — sorted by name and cut into pages of `pageSize` mailboxes
 * (page-size.ts, from the most copies one mailbox is asked for). Each page has an `ask`: the hash
 * of what it reads (the workload space, each mailbox's name, the copies asked for there, whether
 * its upsync lists are wanted and with which sets). A stored page is the page of this plan only
 * when its ask is the same, so facts read for another spec — other objects, destinations or
 * upsync sets — are never combined with this plan's (page-freshness.ts). Destinations whose
 * copies are the same list share one key set, hashed once. Pure but for hashing.
 */
import type { UpsyncSet } from '../../../lib/apis/edge-v1alpha1.ts'
import { copyKeyOf } from '../../../lib/placement/copy-key.ts'
import { type Destination, mailboxOfDestination } from '../../../lib/placement/destinations.ts'
import { entryKey } from '../../../lib/store/projection-diff.ts'
import { contentHash } from '../../../lib/store/projection-hash.ts'
import type { CopyKey } from '../../../lib/store/projection-types.ts'
import type { Pair } from '../observe.ts'
import { pageCost, pageSize } from './page-size.ts'

/** Bumped when what a page keeps changes: pages of another format are read again. */
export const PAGE_FORMAT = 1

/** One mailbox of a plan: the copies (entryKeys, sorted) asked for, its upsync lists wanted. */
export type MailboxAsk = { mailbox: string; keys: readonly string[]; upsync: boolean }

export type PagePlan = { index: number; asks: MailboxAsk[]; ask: string; cost: number }

export type ObservationPlan = {
  spaceId: string
  /** Every mailbox, in name order. */
  mailboxes: number
  /** The copy keys asked for anywhere, by entryKey. */
  keys: ReadonlyMap<string, CopyKey>
  pageSize: number
  pages: PagePlan[]
}

export type PlanInput = {
  spaceId: string
  pairs: readonly Pair[]
  /** Mailboxes read for their removals only (no copies asked for unless a pair asks). */
  removals: readonly string[]
  /**
   * The key's own destinations, its placement's upsync sets (none: no upsync lists) and what the
   * space's grant says (lib/tenancy/policy.ts: granted at all, every namespace of the edge).
   */
  upsync?: {
    destinations: readonly Destination[]
    sets: readonly UpsyncSet[]
    all: boolean
    granted: boolean
  }
  /** Mailboxes per page; default pageSize() of the plan. */
  pageSize?: number
  /** The invocations' subrequest budget the pages must fit (default 1,000). */
  budget?: number
}

/** The mailboxes and their key sets: copies of one destination list form one set. */
function keySets(pairs: readonly Pair[]) {
  const lists = new Map<readonly Destination[], Set<string>>()
  const keys = new Map<string, CopyKey>()
  for (const p of pairs) {
    const key = copyKeyOf(p.object)
    const k = entryKey(key)
    keys.set(k, key)
    const set = lists.get(p.destinations) ?? new Set<string>()
    set.add(k)
    lists.set(p.destinations, set)
  }
  // Per mailbox, the ids of the lists naming it, in list order.
  const byMailbox = new Map<string, number[]>()
  const sets = [...lists.values()]
  ;[...lists.keys()].forEach((list, id) => {
    for (const d of list) {
      const mb = mailboxOfDestination(d)
      const ids = byMailbox.get(mb) ?? []
      if (ids.at(-1) !== id) ids.push(id)
      byMailbox.set(mb, ids)
    }
  })
  const union = new Map<string, string[]>()
  const keysOf = (ids: readonly number[]): string[] => {
    const sig = ids.join(',')
    let found = union.get(sig)
    if (!found) {
      const all = new Set<string>()
      for (const id of ids) for (const k of sets[id] ?? []) all.add(k)
      found = [...all].sort()
      union.set(sig, found)
    }
    return found
  }
  return { keys, byMailbox, keysOf }
}

export async function planObservation(input: PlanInput): Promise<ObservationPlan> {
  const { spaceId, pairs, upsync } = input
  const { keys, byMailbox, keysOf } = keySets(pairs)
  const upsyncing = new Set(
    upsync && upsync.sets.length > 0 ? upsync.destinations.map(mailboxOfDestination) : []
  )
  const names = [...new Set([...byMailbox.keys(), ...input.removals, ...upsyncing])].sort()
  const none: string[] = []
  const asks: MailboxAsk[] = names.map((mailbox) => {
    const ids = byMailbox.get(mailbox)
    return { mailbox, keys: ids ? keysOf(ids) : none, upsync: upsyncing.has(mailbox) }
  })
  const most = asks.reduce((m, a) => Math.max(m, a.keys.length), 0)
  const resources = upsyncing.size > 0 ? (upsync?.sets.length ?? 0) : 0
  const upsyncLoad = upsyncing.size > 0 ? { resources } : undefined
  const size = input.pageSize ?? pageSize(most, upsyncLoad, input.budget)
  // Each key set is hashed once, and pages name their sets by hash.
  const setHashes = new Map<readonly string[], Promise<string>>()
  const hashOf = (list: readonly string[]) => {
    let h = setHashes.get(list)
    if (!h) {
      h = contentHash(list)
      setHashes.set(list, h)
    }
    return h
  }
  const upsyncAsk =
    upsyncing.size > 0
      ? { sets: upsync?.sets ?? [], all: !!upsync?.all, granted: !!upsync?.granted }
      : null
  const pages: PagePlan[] = []
  for (let at = 0, index = 0; at < asks.length; at += size, index++) {
    const slice = asks.slice(at, at + size)
    const mailboxes = await Promise.all(
      slice.map(async (a) => [a.mailbox, await hashOf(a.keys), a.upsync] as const)
    )
    const ask = await contentHash({ format: PAGE_FORMAT, spaceId, upsync: upsyncAsk, mailboxes })
    const load = {
      mailboxes: slice.length,
      copies: slice.reduce((n, a) => n + a.keys.length, 0),
      upsyncMailboxes: slice.filter((a) => a.upsync).length,
    }
    pages.push({ index, asks: slice, ask, cost: pageCost(load, resources) })
  }
  return { spaceId, mailboxes: asks.length, keys, pageSize: size, pages }
}
