/**
 * How many mailboxes one page of a placement's observation holds (../README.md "Pages",
 * docs/SCALING.md): as many as fit in MAX_PAGE_REQUESTS subrequests of reads, at most
 * MAX_PAGE_PAIRS (mailbox, copy) pairs (what one stored page may hold) and MAX_PAGE_MAILBOXES.
 * A page's reads are batched across its mailboxes (page-read.ts): their space records (one read
 * per 100), their marks (one per 50), their manifests (one per 100) and shared manifests (one),
 * the copies' states (one per 100 copies in all), the upsync lists of each destination that has
 * upsync sets (one list per resource they name, and the mailbox's registry), and the page's own
 * write. So a page of P mailboxes with K copies each costs about P × (K + 4) / 100 requests, plus
 * P × (R + 2) with R upsynced resources, plus a few: 200 mailboxes of 100 copies about 210, which
 * leaves room in a hook's 800 for the run's other reads and a second page.
 * The size depends only on the plan (the most copies one mailbox is asked for, the upsync sets)
 * and the configured budget (a smaller one makes smaller pages, PAGE_SHARE of it), never on what
 * an invocation has used, so page N names the same mailboxes in every run of one plan. Pure.
 */

/** Requests one page's reads may take (a hook's share of the budget is 800). */
export const MAX_PAGE_REQUESTS = 300
/** ...and at most this share of a smaller budget (SUBREQUEST_BUDGET). */
export const PAGE_SHARE = 0.3
/** (mailbox, copy) pairs one page holds at most. */
export const MAX_PAGE_PAIRS = 20_000
/** Mailboxes one page holds at most. */
export const MAX_PAGE_MAILBOXES = 1_000
/** Requests of a page whatever its size: shared manifests, epochs, the page's write, slack. */
const FIXED = 8

/** What one page reads: its mailboxes, the copies asked for in all, those with upsync sets. */
export type PageLoad = { mailboxes: number; copies: number; upsyncMailboxes: number }

/** The requests reading a page of `load` takes at most (R: upsynced resources named). */
export function pageCost(load: PageLoad, upsyncResources = 0): number {
  const per100 = (n: number) => Math.ceil(n / 100)
  return (
    per100(load.mailboxes) * 2 +
    per100(load.mailboxes * 2) +
    per100(load.copies) +
    load.upsyncMailboxes * (upsyncResources + 2) +
    FIXED
  )
}

/** The requests one page may take in invocations of `budget` subrequests. */
export const pageRequests = (budget: number) =>
  Math.max(FIXED + 8, Math.min(MAX_PAGE_REQUESTS, Math.floor(budget * PAGE_SHARE)))

/**
 * The mailboxes per page of a plan whose mailboxes are asked for at most `copies` copies, in
 * invocations of `budget` subrequests (default 1,000).
 */
export function pageSize(
  copies: number,
  upsync: { resources: number } | undefined,
  budget = 1_000
): number {
  const perMailbox = (copies + 4) / 100 + (upsync ? upsync.resources + 2 : 0)
  const byRequests = Math.floor((pageRequests(budget) - FIXED - 4) / perMailbox)
  const byPairs = Math.floor(MAX_PAGE_PAIRS / Math.max(1, copies))
  return Math.max(1, Math.min(byRequests, byPairs, MAX_PAGE_MAILBOXES))
}
