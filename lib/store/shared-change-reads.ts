/**
 * Watches of one collection in one isolate share their change-log reads, as kube-apiserver's watch
 * cache serves every watcher of a resource from one reflector: a changes() read of a collection
 * that ended at most `windowMs` ago answers another read of that collection whose cursor is at or
 * past the first one's (its events past the cursor). The answer is exactly what the reader's own
 * read would have returned had it begun when the shared one did — the log hands out settled
 * entries after the cursor up to the read's start minus the settle time — so it carries the shared
 * read's `polledAt`, and everything downstream (the re-read window, the change signal's delay, the
 * next read's `previousPollAt`) takes it as that earlier read. A watch then hears of a change up to
 * `windowMs` later than its own read would have told it, and 50 watches polling one namespace
 * every 200 ms make about 2 reads per interval instead of 50 (the fair-share bench's noisy tenant).
 *
 * Only a cursor that read before (`previousPollAt`: a watch past its first poll) takes a shared
 * answer, and never the one its own previous read had (a shared read must have begun after that
 * one: else a watch past a full page would be handed the same page again). Shared only:
 * collection reads without a limit (the watches'; a point read asks for one entry)
 * and without a mailbox's shared feed; a read that needs its own watermark check (its previous
 * read was too long ago or never, and the shared read skipped the check) does its own; results are
 * kept only after they completed (plain data, never a promise of another request's I/O, which a
 * Worker may not await), at most a few per collection and `maxCollections` collections, and
 * dropped once older than the window (memory: the reads of the last window alone). The events are shared objects: readers never mutate them.
 */
import type { ChangesOptions, ChangesResult } from './types.ts'

export type ChangeReader = (opts: ChangesOptions) => Promise<ChangesResult>

export type SharedReadsOptions = {
  now: () => number
  /** How old (ms, from its start) a read may be to answer another; 0 shares nothing. */
  windowMs: number
  /** The log's retention: a read less than half of it after the previous skips the watermark. */
  retentionMs: number
  maxCollections?: number
}

type Done = { sinceRv: number; checkedWatermark: boolean; result: ChangesResult }

const PER_COLLECTION = 4
const DEFAULT_MAX_COLLECTIONS = 1000

const keyOf = (o: ChangesOptions) =>
  `${o.cluster}\u0000${o.group}\u0000${o.resource}\u0000${o.namespace ?? ''}`

/** Whether a read with this previous read skips the watermark when it begins at `polledAt`. */
function continues(previousPollAt: number | undefined, polledAt: number, retentionMs: number) {
  return (
    previousPollAt !== undefined &&
    polledAt >= previousPollAt &&
    polledAt - previousPollAt < retentionMs / 2
  )
}

export function shareChangeReads(read: ChangeReader, o: SharedReadsOptions): ChangeReader {
  if (o.windowMs <= 0) return read
  const max = o.maxCollections ?? DEFAULT_MAX_COLLECTIONS
  const recent = new Map<string, Done[]>()

  const fresh = (d: Done, now: number) => now - d.result.polledAt <= o.windowMs

  function usable(opts: ChangesOptions, now: number): Done | undefined {
    const since = opts.previousPollAt
    if (since === undefined) return undefined
    const done = recent.get(keyOf(opts))?.filter((d) => fresh(d, now))
    if (!done?.length) return undefined
    return done.find(
      (d) =>
        d.sinceRv <= opts.sinceRv &&
        d.result.polledAt > since &&
        (d.checkedWatermark || continues(since, d.result.polledAt, o.retentionMs))
    )
  }

  function remember(opts: ChangesOptions, result: ChangesResult) {
    const key = keyOf(opts)
    const now = o.now()
    const kept = (recent.get(key) ?? []).filter((d) => fresh(d, now))
    kept.unshift({
      sinceRv: opts.sinceRv,
      checkedWatermark: !continues(opts.previousPollAt, result.polledAt, o.retentionMs),
      result,
    })
    recent.delete(key)
    recent.set(key, kept.slice(0, PER_COLLECTION))
    // Collections are kept in the order of their last read: the oldest go first, every stale one
    // (so only the last window's reads are held) and past `max` any.
    for (const [k, list] of recent) {
      if (recent.size <= max && list.some((d) => fresh(d, now))) break
      recent.delete(k)
    }
  }

  return async (opts) => {
    if (opts.limit !== undefined || opts.shared) return read(opts)
    const hit = usable(opts, o.now())
    if (hit) {
      const { result } = hit
      return {
        events: result.events.filter((e) => e.rv > opts.sinceRv),
        more: result.more,
        polledAt: result.polledAt,
        ...(result.settlesAt === undefined ? {} : { settlesAt: result.settlesAt }),
      }
    }
    const result = await read(opts)
    remember(opts, result)
    return result
  }
}
