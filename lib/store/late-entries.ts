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
  await announceWhileLate(ctx, { issued: first }, async () => {
    const issued = await issueRv(ctx)
    await putItems(ctx, landedNow(ctx, await itemsAt({ rv: issued.rv, ts: ctx.now() })))
    return { issued }
  })
}
