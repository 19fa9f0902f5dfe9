/**
 * Where the edges' standings for Rollouts live (lib/rollout/standing.ts): the key-value store,
 * namespace `rollout-standings`, written by the summarize step per placement and read by the
 * rollout step's tally per workload space. One value per page of mailboxes of a placement, at
 * `<space-id>/<placement-name>#<index>` (the summarize key, then the page), each holding up to
 * PAGE_MAILBOXES mailboxes in name order with, per Rollout named by a stamp there, its standing —
 * at 10,000 edges fifty values of a few tens of kilobytes, well under the store's 350 kB. Page 0
 * also says how many pages the placement has. The format is versioned (`format: 1`) and checked
 * with zod at read: a value that does not decode counts as absent (the summarize step rewrites
 * it; the tally counts its edges pending). Writes go only where a page differs, with the
 * version read as precondition (absent: only if still absent); losing that race to another run
 * of the same key is no failure. Pages past the new count are deleted.
 */
import { z } from 'zod'
import { BudgetDeferred } from '../budget/budget-exceeded.ts'
import { currentInvocation, hasRoom } from '../budget/frames.ts'
import { isApiError } from '../errors.ts'
import { canonicalJson } from '../patch/json-values.ts'
import type { KvStore } from '../store/types.ts'
import { STANDING_STATES, type Standing } from './standing.ts'

export const STANDINGS_NS = 'rollout-standings'
/** Mailboxes per stored page. */
export const PAGE_MAILBOXES = 200
/** Pages one tally Query reads at most. */
export const LIST_PAGE = 20

const StandingSchema = z.object({
  revision: z.number().int().positive(),
  state: z.enum(STANDING_STATES),
  reason: z.string().optional(),
  message: z.string().optional(),
})

const PageSchema = z.object({
  format: z.literal(1),
  /** On page 0: how many pages the placement has. */
  pages: z.number().int().nonnegative().optional(),
  edges: z.record(z.string(), z.record(z.string(), StandingSchema)),
})
type Page = z.infer<typeof PageSchema>

/** Per mailbox, per Rollout name, its standing. */
export type Standings = Map<string, Map<string, Standing>>

const pageKey = (key: string, index: number) => `${key}#${index}`
const raced = (e: unknown) => isApiError(e) && e.code === 409

function decode(value: unknown): Page | undefined {
  const r = PageSchema.safeParse(value)
  return r.success ? (r.data as Page) : undefined
}

/** The pages `standings` is stored as, in order. */
export function pagesOf(standings: Standings): Page[] {
  const names = [...standings.keys()].sort()
  const out: Page[] = []
  for (let i = 0; i < names.length; i += PAGE_MAILBOXES) {
    const edges: Page['edges'] = {}
    for (const mb of names.slice(i, i + PAGE_MAILBOXES)) {
      const row: Record<string, Standing> = {}
      const byRollout = standings.get(mb) ?? new Map<string, Standing>()
      for (const r of [...byRollout.keys()].sort()) row[r] = byRollout.get(r) as Standing
      edges[mb] = row
    }
    out.push({ format: 1, edges })
  }
  const first = out[0]
  if (first) first.pages = out.length
  return out
}

export type WriteResult = { written: number; deleted: number }

/**
 * Stores the standings of summarize key `key` (non-empty): reads its pages (one BatchGetItem per
 * 100 keys), writes those that differ, deletes those past the new count.
 */
export async function writeStandings(
  kv: KvStore,
  key: string,
  standings: Standings
): Promise<WriteResult> {
  const want = pagesOf(standings)
  const keys = Array.from({ length: want.length + 1 }, (_, i) => pageKey(key, i))
  const found = await kv.getMany(STANDINGS_NS, keys)
  let written = 0
  for (const [i, page] of want.entries()) {
    const k = pageKey(key, i)
    const stored = found.get(k)
    const had = stored ? decode(stored.value) : undefined
    if (had && canonicalJson(had) === canonicalJson(page)) continue
    try {
      await kv.put(STANDINGS_NS, k, page, stored?.version ?? null)
      written++
    } catch (e) {
      if (!raced(e)) throw e
    }
  }
  const first = found.get(pageKey(key, 0))
  const before = Math.max(
    (first ? decode(first.value)?.pages : undefined) ?? 0,
    found.has(pageKey(key, want.length)) ? want.length + 1 : 0
  )
  let deleted = 0
  for (let i = want.length; i < before; i++) {
    await kv.delete(STANDINGS_NS, pageKey(key, i))
    deleted++
  }
  return { written, deleted }
}

/** Deletes every page of summarize key `key` (its placement is gone); how many there were. */
export async function dropStandings(kv: KvStore, key: string): Promise<number> {
  const entries = await kv.list(STANDINGS_NS, `${key}#`)
  for (const e of entries) await kv.delete(STANDINGS_NS, e.key)
  return entries.length
}

/** One placement's stored page, as the tally reads it. */
export type StoredStandings = { placement: string; edges: Standings }

/**
 * Every stored page of the placements of workload space `spaceId`, LIST_PAGE per Query, each
 * Query only while the invocation has room for it (else BudgetDeferred: the step runs again).
 * A page that does not decode is left out. A failed read throws.
 */
export async function readSpaceStandings(kv: KvStore, spaceId: string): Promise<StoredStandings[]> {
  const out: StoredStandings[] = []
  const prefix = `${spaceId}/`
  let after: string | undefined
  for (;;) {
    if (!hasRoom(1)) {
      const inv = currentInvocation()
      throw new BudgetDeferred(inv?.kind ?? 'rollout', inv?.budget ?? 0, 'rollout standings')
    }
    const page = await kv.list(STANDINGS_NS, prefix, {
      limit: LIST_PAGE,
      ...(after !== undefined ? { after } : {}),
    })
    for (const e of page) {
      const decoded = decode(e.value)
      if (!decoded) continue
      const edges: Standings = new Map()
      for (const [mb, row] of Object.entries(decoded.edges))
        edges.set(mb, new Map(Object.entries(row) as [string, Standing][]))
      out.push({ placement: e.key.slice(prefix.length, e.key.lastIndexOf('#')), edges })
    }
    if (page.length < LIST_PAGE) return out
    after = page[page.length - 1]?.key
  }
}
