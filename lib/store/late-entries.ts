/**
 * Change-log entries that land late. changes() hands an entry out once `settleMs` has passed since
 * its resourceVersion was issued, reading in rv order (change-log.ts), and a reader that has gone
 * past an rv never looks below it again. An entry still in flight is invisible, not unsettled: a
 * writer whose entry lands more than `settleMs` after its rv was issued (a slow table, a busy
 * process, the SDK resending) may have been passed by a reader that handed out a later rv
 * meanwhile, and that reader's watch would never show the change. So every writer measures, from
 * just before it asked the counter (the rv was issued after that moment, so the measure never
 * comes out short), until its entry has landed; when that took `settleMs` or more it announces the
 * change again at a fresh rv (an object is written again unchanged, a projection's change list is
 * logged again), and again while that is late too, up to ANNOUNCE_ATTEMPTS writes in all. With
 * `settleMs` 0 (tests that want entries at once) nothing is ordered and nothing is announced again.
 */
import type { Item } from './attrs.ts'
import { putItems } from './batch-put.ts'
import type { StoreContext } from './context.ts'
import { allocateRv } from './meta-items.ts'
import { landedNow } from './projection-log.ts'

/** A resourceVersion and the store clock's time just before it was asked for. */
export type IssuedRv = { rv: number; askedAt: number }

/** How many times one change is written or logged at most: the first time and three again. */
const ANNOUNCE_ATTEMPTS = 4

/** The next resourceVersion, with the time it was asked for. */
export async function issueRv(ctx: StoreContext): Promise<IssuedRv> {
  const askedAt = ctx.now()
  return { rv: await allocateRv(ctx), askedAt }
}

/**
 * The next `count` resourceVersions (one request), in increasing order, all asked for at the same
 * moment: writers batched together share one counter move and one measure of lateness.
 */
export async function issueRvs(
  ctx: StoreContext,
  count: number
): Promise<{ rvs: number[]; askedAt: number }> {
  const askedAt = ctx.now()
  const top = await allocateRv(ctx, count)
  return { rvs: Array.from({ length: count }, (_, i) => top - count + 1 + i), askedAt }
}

/** Whether an entry at `issued`, landed now, may have been passed over by a reader. */
function landedLate(ctx: StoreContext, issued: IssuedRv): boolean {
  return ctx.settleMs > 0 && ctx.now() - issued.askedAt >= ctx.settleMs
}

/**
 * Announces a change again while its last announcement landed late: `again` writes or logs it once
 * more (taking a fresh rv) and says how, or undefined when it need not or could not; at most
 * ANNOUNCE_ATTEMPTS announcements in all. Returns the last one.
 */
export async function announceWhileLate<T extends { issued: IssuedRv }>(
  ctx: StoreContext,
  first: T,
  again: (last: T) => Promise<T | undefined>
): Promise<T> {
  let last = first
  for (let n = 1; n < ANNOUNCE_ATTEMPTS && landedLate(ctx, last.issued); n++) {
    const next = await again(last)
    if (!next) break
    last = next
  }
  return last
}

/**
 * After a projection's change-log items for `first` have landed: while that was late, logs the
 * same changes again at a fresh rv (`itemsAt` builds the items for an rv and its time).
 */
export async function logAgainWhileLate(
  ctx: StoreContext,
  first: IssuedRv,
  itemsAt: (at: { rv: number; ts: number }) => Promise<Item[]>
): Promise<void> {
  await logAllAgainWhileLate(ctx, first.askedAt, [itemsAt])
}

/**
 * `logAgainWhileLate` for several changes whose rvs were issued together (issueRvs) and whose
 * items landed together: while that was late, each is logged again at a fresh rv of one new
 * batch (one counter request and the items put together).
 */
export async function logAllAgainWhileLate(
  ctx: StoreContext,
  askedAt: number,
  itemsAt: readonly ((at: { rv: number; ts: number }) => Promise<Item[]>)[]
): Promise<void> {
  if (itemsAt.length === 0) return
  const first = { issued: { rv: 0, askedAt } }
  await announceWhileLate(ctx, first, async () => {
    const { rvs, askedAt: asked } = await issueRvs(ctx, itemsAt.length)
    const ts = ctx.now()
    const items = await Promise.all(itemsAt.map((at, i) => at({ rv: rvs[i] as number, ts })))
    await putItems(ctx, landedNow(ctx, items.flat()))
    return { issued: { rv: rvs[rvs.length - 1] as number, askedAt: asked } }
  })
}
