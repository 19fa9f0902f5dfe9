/**
 * Which stored pages still stand for their mailboxes, without reading the copies again:
 * - `unread`: no page, one read for another ask (another spec: plan.ts), or older than
 *   PAGE_MAX_AGE_MS (what bounds the trust in a mark a crash may have lost:
 *   lib/store/projection-marks.ts). It must be read.
 * - `changed`: read for this ask, but something it read has changed since: a mailbox's Ready
 *   space (re-read for the mailboxes that had none, and for all when the `spaces` epoch moved),
 *   its report mark (a copy state, an upsynced object), or — when the `manifests` epoch moved
 *   since the page was read — its content version (lib/store/epochs.ts: the epoch moves after
 *   every manifest write, so while it stands no manifest was written since).
 * - `current`: nothing it read has changed.
 * Cost: the two epochs, then for all pages together one read per 100 mailboxes whose space is
 * checked, one per 100 report marks (per 50 with the content version) and one per 100 shared
 * manifests (checkCost says how many before they are sent).
 */
import { currentEpoch } from '../../../lib/store/epochs.ts'
import type { ProjectionStore } from '../../../lib/store/projection-types.ts'
import type { KvStore } from '../../../lib/store/types.ts'
import type { PageFacts } from './page-facts.ts'
import { readySpaces } from './page-read.ts'
import type { ObservationPlan } from './plan.ts'

/** How long a page is trusted at most, whatever its marks say (ms). */
export const PAGE_MAX_AGE_MS = 10 * 60_000

export type PageStatus = 'current' | 'changed' | 'unread'

export type FreshnessDeps = {
  kv: KvStore
  projections: Pick<ProjectionStore, 'getMailboxMarks'>
  now: () => Date
}

/** The `manifests` and `spaces` epochs, read afresh (undefined: could not be read). */
export async function epochsNow(kv: KvStore, now: number): Promise<PageFacts['epochs']> {
  const [manifests, spaces] = await Promise.all([
    currentEpoch(kv, 'manifests', now, 0),
    currentEpoch(kv, 'spaces', now, 0),
  ])
  return {
    ...(manifests !== undefined ? { manifests } : {}),
    ...(spaces !== undefined ? { spaces } : {}),
  }
}

const moved = (then: number | undefined, now: number | undefined) =>
  then === undefined || now === undefined || then !== now

/** What checking the pages will read: mailboxes by kind of check. */
type Checks = {
  spaces: string[]
  withContent: string[]
  marksOnly: string[]
  candidates: { index: number; facts: PageFacts; content: boolean }[]
  statuses: PageStatus[]
}

/** Whether a stored page is one of the plan's page `index`, read recently enough. */
export function isPageOf(
  plan: ObservationPlan,
  index: number,
  facts: PageFacts | undefined,
  nowMs: number
): facts is PageFacts {
  const age = facts ? nowMs - facts.readAt : Number.POSITIVE_INFINITY
  return (
    !!facts &&
    facts.ask === plan.pages[index]?.ask &&
    age <= PAGE_MAX_AGE_MS &&
    age >= -PAGE_MAX_AGE_MS
  )
}

/** The pages to check: as stored, those to check (`only`), the epochs now. */
export type CheckAt = {
  stored: readonly (PageFacts | undefined)[]
  only: ReadonlySet<number>
  epochs: PageFacts['epochs']
}

function checksOf(plan: ObservationPlan, at: CheckAt, nowMs: number): Checks {
  const { stored, only, epochs } = at
  const out: Checks = { spaces: [], withContent: [], marksOnly: [], candidates: [], statuses: [] }
  plan.pages.forEach((_, index) => {
    const facts = stored[index]
    if (!isPageOf(plan, index, facts, nowMs)) {
      out.statuses.push('unread')
      return
    }
    out.statuses.push('current')
    if (!only.has(index)) return
    const content = moved(facts.epochs.manifests, epochs.manifests)
    const allSpaces = moved(facts.epochs.spaces, epochs.spaces)
    facts.mailboxes.forEach((mb, i) => {
      const id = facts.spaces[i]
      if (allSpaces || !id) out.spaces.push(mb)
      if (id) (content ? out.withContent : out.marksOnly).push(id)
    })
    out.candidates.push({ index, facts, content })
  })
  return out
}

const per = (n: number, size: number) => Math.ceil(n / size)

/**
 * The statuses of the plan's pages `stored` (those not in `only` are taken as current when they
 * are the plan's: read by this run), and the requests checking them takes (`cost`, first).
 */
export function checkPages(
  deps: FreshnessDeps,
  plan: ObservationPlan,
  at: CheckAt
): { cost: number; run(): Promise<PageStatus[]> } {
  const checks = checksOf(plan, at, deps.now().getTime())
  const cost =
    per(checks.spaces.length, 100) +
    per(checks.withContent.length, 50) +
    per(checks.marksOnly.length, 100) +
    (checks.withContent.length > 0 ? 1 : 0)
  return {
    cost,
    async run() {
      const none = Promise.resolve(new Map())
      const [spaces, withContent, marksOnly] = await Promise.all([
        checks.spaces.length > 0 ? readySpaces(deps.kv, checks.spaces) : none,
        checks.withContent.length > 0 ? deps.projections.getMailboxMarks(checks.withContent) : none,
        checks.marksOnly.length > 0
          ? deps.projections.getMailboxMarks(checks.marksOnly, { content: false })
          : none,
      ])
      const checked = new Set(checks.spaces)
      const statuses = [...checks.statuses]
      for (const { index, facts, content } of checks.candidates) {
        const changed = facts.mailboxes.some((mb, i) => {
          const id = facts.spaces[i] ?? null
          if (checked.has(mb) && (spaces.get(mb)?.id ?? null) !== id) return true
          if (!id) return false
          const mark = (content ? withContent : marksOnly).get(id)
          if ((mark?.reports ?? null) !== facts.reports[i]) return true
          return content && (mark?.content ?? null) !== facts.content[i]
        })
        if (changed) statuses[index] = 'changed'
      }
      return statuses
    },
  }
}
