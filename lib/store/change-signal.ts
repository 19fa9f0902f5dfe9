/**
 * The change signal: whether a poller of the change log can find anything new since a poll, told
 * from the resourceVersion counter alone, so that idle watches cost one shared read instead of a
 * Query and a GetItem each per poll (a relay's 47 watches polled about 94 times a second on an idle
 * hub). Every change-log entry takes its rv from the counter (late-entries.ts issueRv), so:
 * - every rv up to the counter's value C was issued before the read that first returned C ended
 *   (`seenAt`);
 * - a poll that began `settleMs` or more after `seenAt` handed out every entry up to C that had
 *   landed (change-log.ts hands out entries `settleMs` after their rv was issued), and an entry
 *   that lands later than that is announced again at a fresh rv, which moves the counter.
 * So while the counter still reads C, a poll that began at or after `seenAt + settleMs` has seen
 * all there is (the delay is Infinity). A value first seen after the last poll began may be any
 * entry's, some perhaps ready already: poll now. Between the two, what the last poll may have
 * missed is settled by `seenAt + settleMs`: one more poll then, not one per interval (a counter
 * moved by a write in another collection cost every idle watch three or four polls).
 * A store without a settle window (tests) hands entries out as they land, and a poller catches a
 * write landing after a later one by reading again the last REREAD_WINDOW_MS behind its cursor
 * (functions/api/watch.ts); there the signal waits that long instead.
 * The counter is read at most once per `maxAgeMs` per store (one store per isolate or process),
 * by whichever poller finds the value too old; others use the last value meanwhile. Only the
 * value is shared, never a pending read: in a Worker, one request must not wait on I/O another
 * request started. A failed read answers "poll now", so the poller polls as before.
 */
import type { StoreContext } from './context.ts'
import { readCurrentRv } from './meta-items.ts'

/** How old the shared counter value may be (ms) before a poller reads it again. */
export const SIGNAL_MAX_AGE_MS = 250

/** How far behind its cursor a poller reads again for writes that landed late (ms). */
export const REREAD_WINDOW_MS = 2_000

/** A read in flight longer than this no longer stops others from reading (ms). */
const READ_STALE_MS = 2_000

/**
 * How long (ms) until a changes() call could hand out anything the one that began at `polledAt`
 * did not: 0 to poll now, Infinity while nothing can appear until the counter moves.
 */
export type PollDelay = (polledAt: number) => Promise<number>

export function createChangeSignal(ctx: StoreContext, maxAgeMs = SIGNAL_MAX_AGE_MS): PollDelay {
  let known: { rv: number; seenAt: number; readAt: number } | undefined
  let readingSince: number | undefined

  const refresh = async () => {
    readingSince = ctx.now()
    try {
      const rv = await readCurrentRv(ctx)
      const at = ctx.now()
      known = known?.rv === rv ? { ...known, readAt: at } : { rv, seenAt: at, readAt: at }
    } finally {
      readingSince = undefined
    }
  }

  return async (polledAt) => {
    const now = ctx.now()
    const fresh = known !== undefined && now - known.readAt <= maxAgeMs
    const reading = readingSince !== undefined && now - readingSince < READ_STALE_MS
    if (!fresh && !reading) {
      try {
        await refresh()
      } catch {
        return 0
      }
    }
    if (!known || known.seenAt > polledAt) return 0
    const complete = known.seenAt + (ctx.settleMs > 0 ? ctx.settleMs : REREAD_WINDOW_MS)
    return polledAt >= complete ? Number.POSITIVE_INFINITY : Math.max(0, complete - ctx.now())
  }
}
