/**
 * One poll of a watch's change log (functions/api/watch.ts) and the turn around it: what the
 * watch has sent (its cursor, with the entries it re-reads behind it for late commits), and how
 * long to wait before the next poll. Re-read entries are not news: while new changes flow the
 * watch polls once per base interval from each poll's start (at once only after a full page);
 * once a poll brings nothing new it asks the store's change signal (lib/store/change-signal.ts)
 * whether anything can be new before it polls again.
 */
import type { HubDeps } from '../../lib/hub/deps.ts'
import { servedAt, type Target } from '../../lib/hub/target.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { REREAD_WINDOW_MS } from '../../lib/store/change-signal.ts'
import type { ChangeEvent, ResumePoint } from '../../lib/store/types.ts'

export type WatchParams = {
  target: Target
  allSpaces: boolean
  resourceVersion?: string
  resourceVersionMatch?: string
  sendInitialEvents?: boolean
  /** Only to refuse it with resourceVersionMatch, as kube does; a watch does not page. */
  continue?: string
  predicate: (obj: KubeObject) => boolean
  bookmarks: boolean
  timeoutSeconds?: number
  /** How often the change log is polled while changes are flowing. */
  pollMs?: number
  /** The slowest poll while nothing changes: empty polls double the interval up to this. */
  idlePollMs?: number
  /** How far behind the cursor to look for late commits. */
  settleMs?: number
  /** How long to wait for the store to reach `resourceVersion` (default 3 s, kube's). */
  freshWaitMs?: number
  /** Rewrites each event before it is sent (e.g. as a Table for kubectl). */
  transform?: (event: unknown) => unknown
  /** Reads what `transform` needs for these objects, before their events are sent. */
  prepare?: (objects: readonly KubeObject[]) => Promise<void>
  /**
   * Charges events handed to this watch to its token's share (fair-share.ts): answers how long
   * (ms) the watch waits before it polls again; absent, never.
   */
  pace?: (events: number) => number
}

/** Tracks what was sent, and the cursor below which everything has settled. */
export type Cursor = {
  low: number
  highest: number
  sent: Map<number, number>
  /** Set when the watch resumes from a watchable list's version. */
  resume?: ResumePoint
  /** When the last poll began, if it read everything there was and brought nothing new. */
  polledAt?: number
  /** When the last poll began, whatever it brought (the store skips its watermark read then). */
  lastPollAt?: number
  /**
   * When the entry the last poll stopped at (issued, not yet settled) settles, on this clock: a
   * poll then hands it out, however late the change signal saw the counter move.
   */
  settlesAt?: number
}

/**
 * Whether the list the watch resumes from (the client's, or the initial events') already showed
 * this change: one at or below the list's version that landed before the list began
 * (lib/store/list-marks.ts).
 */
function alreadyListed(cur: Cursor, ev: ChangeEvent): boolean {
  const r = cur.resume
  return !!r && ev.rv <= r.upTo && ev.landedAt !== undefined && ev.landedAt < r.landedAfter
}

/** The collection a watch reads: its space (every space for `/clusters/*`), kind and namespace. */
export function watchedCollection(p: WatchParams) {
  const { target: t } = p
  return {
    cluster: p.allSpaces ? '*' : t.space.id,
    group: t.info.group,
    resource: t.info.resource,
    ...(t.namespace ? { namespace: t.namespace } : {}),
  }
}

async function pollOnce(
  deps: Pick<HubDeps, 'objects'>,
  p: WatchParams,
  cur: Cursor,
  emit: (v: unknown) => void
): Promise<{ more: boolean; fresh: number; polledAt: number; settlesInMs?: number }> {
  const res = await deps.objects.changes({
    ...watchedCollection(p),
    sinceRv: cur.low,
    ...(cur.lastPollAt === undefined ? {} : { previousPollAt: cur.lastPollAt }),
  })
  cur.lastPollAt = res.polledAt
  const now = Date.now()
  // One manifest write yields several events with one rv; they always come back together, so
  // only rvs sent by earlier polls are skipped.
  const seen = new Set(cur.sent.keys())
  let fresh = 0
  const out: { type: string; object: KubeObject }[] = []
  for (const ev of res.events) {
    if (seen.has(ev.rv)) continue
    fresh += 1
    cur.sent.set(ev.rv, now)
    cur.highest = Math.max(cur.highest, ev.rv)
    if (alreadyListed(cur, ev)) continue
    if (p.predicate(ev.object)) out.push({ type: ev.type, object: servedAt(p.target, ev.object) })
  }
  if (p.prepare && out.length > 0) await p.prepare(out.map((e) => e.object))
  for (const e of out) emit(e)
  for (const [rv, at] of cur.sent)
    if (now - at > (p.settleMs ?? REREAD_WINDOW_MS)) {
      cur.low = Math.max(cur.low, rv)
      cur.sent.delete(rv)
    }
  // Nothing at or below the cursor is read again: past the list's version, resuming is done.
  if (cur.resume && cur.low >= cur.resume.upTo) cur.resume = undefined
  const settles = res.settlesAt === undefined ? {} : { settlesInMs: res.settlesAt - res.polledAt }
  return { more: res.more, fresh, polledAt: res.polledAt, ...settles }
}

/** How often the change log is polled while changes flow (ms). */
export const basePollMs = (p: WatchParams) => p.pollMs ?? 200

/** What one turn of the loop did, and how long to wait before the next. */
type Turn = { polled: boolean; events: number; waitMs: number }

/** How long until the entry the last poll stopped at settles (0: it has), else undefined. */
function untilSettled(cur: Cursor): number | undefined {
  return cur.settlesAt === undefined ? undefined : Math.max(0, cur.settlesAt - Date.now())
}

/**
 * A poll, unless the last one read everything there was and the store's change signal says
 * nothing more can be handed out yet (lib/store/change-signal.ts). `events` counts only changes
 * not sent before: the entries re-read behind the cursor come back on every poll of the re-read
 * window and are no sign that more is flowing. `waitMs` is how long until the next turn: none
 * after a full page, the rest of the base interval (from this poll's start) after new events,
 * else until the signal says something can be new (Infinity while nothing can). A poll that
 * stopped at an entry not yet settled is followed by one when it settles: the signal alone would
 * wait the settle time from when it saw the counter move, up to an idle interval later.
 */
export async function pollIfChanged(
  deps: Pick<HubDeps, 'objects'>,
  p: WatchParams,
  cur: Cursor,
  emit: (v: unknown) => void
): Promise<Turn> {
  const settling = untilSettled(cur)
  const signal =
    cur.polledAt === undefined || settling === 0 ? 0 : await deps.objects.pollDelay(cur.polledAt)
  const waitMs = Math.min(signal, settling ?? Number.POSITIVE_INFINITY)
  if (waitMs > 0) return { polled: false, events: 0, waitMs }
  const began = Date.now()
  const res = await pollOnce(deps, p, cur, emit)
  // Counted from the poll's end, never early: a poll before the entry settles would only stop again.
  cur.settlesAt = res.settlesInMs === undefined ? undefined : Date.now() + res.settlesInMs
  // While changes flow, poll on at the base interval without asking: the shared counter value
  // may be up to 250 ms old, which would delay the next event by as much.
  const flowing = res.more || res.fresh > 0
  cur.polledAt = flowing ? undefined : res.polledAt
  const waitNext = res.more
    ? 0
    : flowing
      ? Math.max(0, began + basePollMs(p) - Date.now())
      : (untilSettled(cur) ?? Number.POSITIVE_INFINITY)
  return { polled: true, events: res.fresh, waitMs: waitNext }
}
