/**
 * A placement's observation put together from its pages (page-facts.ts), as the parts of a run
 * read it (run-input.ts): the same Observations a single read makes (observe.ts
 * `observationsOf`, with the heartbeats and Location labels of every destination read now, the
 * copies' bodies by hash), a Condition per (object, destination) worked out once per distinct
 * kept copy (and per heartbeat for a stale destination: copy-condition.ts reads nothing else of
 * it) instead of once per pair, what each mailbox holds for the removals, and the upsync summary
 * merged from the pages' parts. What it keeps per pair is one integer per (copy key, mailbox), so
 * ten thousand destinations of a hundred objects take a few megabytes.
 */
import type { KubeObject } from '../../../lib/kube/types.ts'
import { mapLimit } from '../../../lib/map-limit.ts'
import { copyKeyOf } from '../../../lib/placement/copy-key.ts'
import { mailboxOfDestination } from '../../../lib/placement/destinations.ts'
import type { SourceObject } from '../../../lib/placement/types.ts'
import { entryKey } from '../../../lib/store/projection-diff.ts'
import type { ProjectionStore } from '../../../lib/store/projection-types.ts'
import { type CopyCondition, copyCondition } from '../../../lib/summarize/copy-condition.ts'
import { isLive, type Liveness } from '../../../lib/summarize/liveness.ts'
import type { Condition } from '../object-writes.ts'
import { type HeldCopy, type Observations, observationsOf } from '../observe.ts'
import { heardAt, type Inventory, type Reads } from '../reads.ts'
import type { MailboxHold } from '../removals.ts'
import { mergeUpsync } from '../upsync-summary.ts'
import { type PageFacts, type Upsync, unrun } from './page-facts.ts'

export type Combined = {
  seen: Observations
  condition: Condition
  /** What each of `names` holds (no hold: not read — no Ready space — or its SyncTarget gone). */
  holds(names: readonly string[], syncTargetExists: (mb: string) => boolean): MailboxHold[]
  upsync?: Upsync
}

export type CombineAt = {
  /** The inventory spaces whose heartbeats and Locations are wanted. */
  clusters: readonly string[]
  nowMs: number
  rule: Liveness
}

type Where = { page: PageFacts; pos: number; pairs: Map<string, Int32Array>; holdOf: Int32Array }

export async function combinePages(
  deps: { projections: Pick<ProjectionStore, 'getBodies'> },
  reads: Pick<Reads, 'inventory'>,
  pages: readonly PageFacts[],
  at: CombineAt
): Promise<Combined> {
  const where = new Map<string, Where>()
  for (const page of pages) {
    const pairs = new Map<string, Int32Array>()
    const holdOf = unrun(page.holdOf, page.mailboxes.length)
    page.mailboxes.forEach((mb, pos) => {
      where.set(mb, { page, pos, pairs, holdOf })
    })
  }
  const copyId = (w: Where, k: string): number => {
    let list = w.pairs.get(k)
    if (!list) {
      const encoded = w.page.pairs[k]
      list = unrun(encoded ?? [], encoded ? w.page.mailboxes.length : 0)
      w.pairs.set(k, list)
    }
    return list[w.pos] ?? 0
  }
  const held = (mailbox: string, k: string): HeldCopy => {
    const w = where.get(mailbox)
    return (w ? w.page.copies[copyId(w, k)] : undefined) ?? {}
  }
  const hashes = new Set(pages.flatMap((p) => p.copies.flatMap((c) => c.entry?.hash ?? [])))
  const [inventories, bodies] = await Promise.all([
    mapLimit([...at.clusters], 8, async (c) => [c, await reads.inventory(c)] as const),
    deps.projections.getBodies([...hashes]),
  ])
  const byCluster = new Map<string, Inventory>(inventories)
  const seen = observationsOf(byCluster, bodies, held)
  return {
    seen,
    condition: conditionOf(byCluster, bodies, at, (mb, k) => {
      const w = where.get(mb)
      return w ? { w, id: copyId(w, k) } : undefined
    }),
    holds: (names, exists) =>
      names.map((name) => {
        const w = where.get(name)
        const read = !!w && w.page.spaces[w.pos] !== null && exists(name)
        const hold = read ? w.page.holds[w.holdOf[w.pos] ?? 0] : undefined
        return { name, hold: read ? (hold ?? { held: [], removing: [] }) : undefined }
      }),
    ...(pages.some((p) => p.upsync)
      ? { upsync: mergeUpsync(pages.flatMap((p) => (p.upsync ? [p.upsync] : []))) }
      : {}),
  }
}

/** The condition of a kept copy at a live destination (copy-condition.ts), from its page. */
function liveCondition(page: PageFacts, id: number, bodies: ReadonlyMap<string, KubeObject>) {
  const { entry, state } = page.copies[id] ?? {}
  const body = entry ? bodies.get(entry.hash) : undefined
  return copyCondition({
    live: true,
    ...(entry ? { entry } : {}),
    ...(state ? { state } : {}),
    ...(body ? { body } : {}),
  })
}

/** Conditions worked out once per kept copy of a page (live) or per heartbeat (stale). */
function conditionOf(
  inventories: ReadonlyMap<string, Inventory>,
  bodies: ReadonlyMap<string, KubeObject>,
  at: CombineAt,
  locate: (mb: string, k: string) => { w: Where; id: number } | undefined
): Condition {
  const keys = new WeakMap<SourceObject, string>()
  const keyOf = (o: SourceObject) => {
    let k = keys.get(o)
    if (k === undefined) {
      k = entryKey(copyKeyOf(o))
      keys.set(o, k)
    }
    return k
  }
  const live = new Map<PageFacts, Map<number, CopyCondition>>()
  const stale = new Map<number | undefined, CopyCondition>()
  const staleAt = (beatAt: number | undefined) => {
    let c = stale.get(beatAt)
    if (!c) {
      c = copyCondition({ live: false, ...(beatAt !== undefined ? { beatAt } : {}) })
      stale.set(beatAt, c)
    }
    return c
  }
  const unread = copyCondition({ live: true })
  return (o, d) => {
    const beatAt = heardAt(inventories.get(d.cluster), d.syncTargetUID)
    if (!isLive(beatAt, at.nowMs, at.rule.staleAfterMs)) return staleAt(beatAt)
    const found = locate(mailboxOfDestination(d), keyOf(o))
    if (!found) return unread
    const memo = live.get(found.w.page) ?? new Map<number, CopyCondition>()
    live.set(found.w.page, memo)
    let c = memo.get(found.id)
    if (!c) {
      c = liveCondition(found.w.page, found.id, bodies)
      memo.set(found.id, c)
    }
    return c
  }
}
