/**
 * A placement observed in pages, over as many invocations as its mailboxes need (the README's
 * "Pages"): the run's plan (plan.ts) cuts the mailboxes into pages; a run reads the stored pages
 * (page-store.ts) and then, in order and each only while the invocation has room for its cost
 * (lib/budget: a page's reads and its write are reserved before it starts, so nothing is cut):
 * 1. reads the pages that are not the plan's (absent, for another ask, too old: page-freshness.ts)
 *    and stores each; when pages are left over, the key is deferred (BudgetDeferred: answered as
 *    deferred, sent again at once by the relay and the bench, resumed by the resync), and the
 *    next run goes on from what is stored — the stored pages are its cursor;
 * 2. checks the pages it did not read itself against their mailboxes' marks and reads again
 *    those that changed since — each once per round: a page that changed after it was read again
 *    since the last combination is combined as read, counted in `changed`, and the run asks to be
 *    run again in CHANGED_RECHECK_MS, so a busy fleet still gets its summary;
 * 3. combines the pages (combined.ts), once every page is the plan's. The parts then write from
 *    it with their own preconditions and reservations; `done` records the combination (the pass
 *    record) and drops pages a smaller plan no longer has.
 * A failed read fails the run and keeps nothing of that page; pages are only ever replaced by a
 * newer read of the same ask, never emptied, and a combination never mixes pages of two asks. A
 * page that does not fit one stored value halves the plan's page size (kept in the pass record)
 * and the run starts over.
 */
import { BudgetDeferred } from '../../../lib/budget/budget-exceeded.ts'
import { currentInvocation, hasRoom } from '../../../lib/budget/frames.ts'
import { reserveFor } from '../../../lib/budget/reservation.ts'
import type { ProjectionStore } from '../../../lib/store/projection-types.ts'
import type { KvStore } from '../../../lib/store/types.ts'
import type { Reads } from '../reads.ts'
import { type CombineAt, type Combined, combinePages } from './combined.ts'
import { PageTooLarge } from './page-codec.ts'
import type { PageFacts } from './page-facts.ts'
import { checkPages, epochsNow, isPageOf } from './page-freshness.ts'
import { type PageReadDeps, readPage } from './page-read.ts'
import {
  dropPages,
  type PassRecord,
  readPages,
  readPass,
  writePage,
  writePass,
} from './page-store.ts'
import type { ObservationPlan } from './plan.ts'

/** How soon a run that combined pages changed since they were read asks to run again (ms). */
export const CHANGED_RECHECK_MS = 1_000

export type PagedDeps = PageReadDeps & {
  projections: Pick<
    ProjectionStore,
    'getManifests' | 'getMailboxMarks' | 'getCopyStatesOf' | 'getBodies'
  >
  /** Pages one run reads at most (tests); by default as many as the budget has room for. */
  pagesPerRun?: number | undefined
}

export type PagedAsk = {
  /** The summarize key, which names its pages. */
  key: string
  plan: ObservationPlan
  /** The same plan with `pageSize` mailboxes per page. */
  replan(pageSize: number): Promise<ObservationPlan>
  combine: CombineAt
}

export type Paged = {
  combined: Combined
  plan: ObservationPlan
  /** Pages combined although they changed since they were read (after one read again). */
  changed: number
  requeueAfterMs?: number
  /** Records the combination, once the parts wrote from it. */
  done(): Promise<void>
}

function defer(what: string): never {
  const inv = currentInvocation()
  throw new BudgetDeferred(inv?.kind ?? 'summarize', inv?.budget ?? 0, what)
}

const count = (facts: readonly (PageFacts | undefined)[]) => facts.filter((f) => f).length

/** The requests combining takes: the inventories of the destinations, the copies' bodies. */
function combineCost(plan: ObservationPlan, pages: readonly PageFacts[], clusters: number) {
  const hashes = new Set(pages.flatMap((p) => p.copies.flatMap((c) => c.entry?.hash ?? [])))
  return Math.ceil(plan.mailboxes / 300) * 3 + clusters * 3 + Math.ceil(hashes.size / 100) + 4
}

export async function observePaged(deps: PagedDeps, reads: Reads, ask: PagedAsk): Promise<Paged> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await attemptPaged(deps, reads, ask)
    } catch (e) {
      if (!(e instanceof PageTooLarge) || attempt >= 16) throw e
    }
  }
}

async function attemptPaged(deps: PagedDeps, reads: Reads, ask: PagedAsk): Promise<Paged> {
  const { key } = ask
  const { pass, version: passVersion } = await readPass(deps.kv, key)
  let plan = ask.plan
  if (pass.pageSize !== undefined && pass.pageSize < plan.pageSize)
    plan = await ask.replan(pass.pageSize)
  const stored = await readPages(deps.kv, key, plan.pages.length)
  const nowMs = deps.now().getTime()
  const facts = stored.map((s, i) => (isPageOf(plan, i, s.facts, nowMs) ? s.facts : undefined))
  const epochs = await epochsNow(deps.kv, nowMs)
  const readNow = new Set<number>()
  const progress = () => `the observation of ${key}: ${count(facts)} of ${plan.pages.length} pages`
  /** Reads and stores pages `indices` while there is room; false when some are left. */
  const readSome = async (indices: readonly number[], again: boolean) => {
    for (const i of indices) {
      const page = plan.pages[i]
      if (!page) continue
      if (readNow.size >= (deps.pagesPerRun ?? Number.POSITIVE_INFINITY) || !hasRoom(page.cost))
        return false
      facts[i] = await reserveFor(page.cost, async () => {
        const read = await readPage(deps, plan, page, { epochs, ...(again ? { again } : {}) })
        try {
          await writePage(deps.kv, { key, index: i }, read, stored[i]?.version ?? null)
        } catch (e) {
          if (!(e instanceof PageTooLarge)) throw e
          await smaller(deps.kv, key, { pass, version: passVersion, size: plan.pageSize }, e)
        }
        return read
      })
      readNow.add(i)
    }
    return true
  }
  const unread = plan.pages.flatMap((_, i) => (facts[i] ? [] : [i]))
  if (!(await readSome(unread, false))) defer(progress())
  const others = new Set(plan.pages.flatMap((_, i) => (readNow.has(i) ? [] : [i])))
  const check = checkPages(deps, plan, { stored: facts, only: others, epochs })
  if (!hasRoom(check.cost)) defer(`${progress()}, checking them`)
  const statuses = await check.run()
  const combinedAt = pass.combinedAt ?? 0
  const changed = statuses.flatMap((s, i) => (s === 'changed' ? [i] : []))
  const again = changed.filter((i) => !(facts[i]?.again && (facts[i]?.readAt ?? 0) >= combinedAt))
  if (!(await readSome(again, true))) defer(`${progress()}, ${again.length} changed`)
  const pages = facts.filter((f): f is PageFacts => !!f)
  if (pages.length !== plan.pages.length) defer(progress())
  if (!hasRoom(combineCost(plan, pages, ask.combine.clusters.length)))
    defer(`${progress()}, combining them`)
  const combined = await combinePages(deps, reads, pages, ask.combine)
  const accepted = changed.length - again.length
  return {
    combined,
    plan,
    changed: accepted,
    ...(accepted > 0 ? { requeueAfterMs: CHANGED_RECHECK_MS } : {}),
    async done() {
      // After every page this run read: those read later are of the next round.
      const next: PassRecord = {
        ...(pass.pageSize !== undefined ? { pageSize: pass.pageSize } : {}),
        pages: plan.pages.length,
        combinedAt: deps.now().getTime(),
      }
      const before = pass.pages ?? 0
      await reserveFor(1 + Math.max(0, before - plan.pages.length), async () => {
        if (await writePass(deps.kv, key, next, passVersion))
          await dropPages(deps.kv, key, plan.pages.length, before)
      })
    },
  }
}

/** Halves the key's page size in its pass record, then starts the run over (PageTooLarge). */
async function smaller(
  kv: KvStore,
  key: string,
  read: { pass: PassRecord; version: number | null; size: number },
  e: PageTooLarge
): Promise<never> {
  if (read.size <= 1) throw new Error(`${e.message}, even with one mailbox per page`)
  await writePass(kv, key, { ...read.pass, pageSize: Math.floor(read.size / 2) }, read.version)
  throw e
}
