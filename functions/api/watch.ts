/**
 * Watch: a newline-delimited JSON stream of {type, object} events, served by polling the store's
 * change log. The options are kube's (lib/hub/list-options.ts: a watch from "" or "0" defaults to
 * sendInitialEvents=true): with sendInitialEvents the current objects are sent first as ADDED,
 * followed, when bookmarks are allowed, by a BOOKMARK annotated `k8s.io/initial-events-end`;
 * sendInitialEvents=false from "" or "0" starts at the store's current version. A watch from a
 * watchable list's version (every list the API answers, and the initial events' own) also sends
 * the writes that list may have missed, in flight while it read (lib/store/list-marks.ts), and
 * not the changes it showed. Bookmarks are
 * sent when asked for; the stream ends after timeoutSeconds (0 or absent: 30 minutes; negative: at
 * once, as kube's expired context does); a too-old resourceVersion ends it with an ERROR event
 * carrying a 410 Expired Status. A resourceVersion the store has not reached yet is waited for
 * up to 3 s and then ends the stream with an ERROR event carrying kube's TooLarge 504 Status
 * (resource-version.ts), on which client-go relists. kube sends that event for a watch with
 * sendInitialEvents; for a plain watch from the future its watch cache stays silent until the
 * version comes, which here (a store can be recreated while clients hold its old versions) could
 * be forever, so every watch gets the event. Because writers take a resourceVersion before they
 * commit, a change with a lower version can land just after a higher one: the loop re-reads a
 * short window behind its cursor and skips what it already sent. A quiet watch polls less often
 * (the interval doubles per empty poll, up to `idlePollMs`; the first change after a quiet spell
 * waits at most that long), and before each poll after a complete one it asks the store's change
 * signal (lib/store/change-signal.ts) whether anything can be new: while nothing can, it sends
 * no request of its own, so many idle watches cost one shared counter read, and after a write
 * elsewhere it polls once when it learns of it and once when that write has settled.
 * `Content-Encoding: identity` keeps wrangler dev from buffering the stream through gzip.
 * A watch is one Worker invocation, and every poll costs subrequests: the stream ends normally
 * (after a BOOKMARK at its last version when bookmarks are allowed) before another poll could take
 * it past its share of the budget (lib/budget/limits.ts), and the client watches again from the
 * last version it saw, as kube clients do when a server ends a watch.
 */
import { currentInvocation } from '../../lib/budget/frames.ts'
import { SHARES } from '../../lib/budget/limits.ts'
import { isApiError } from '../../lib/errors.ts'
import type { HubDeps } from '../../lib/hub/deps.ts'
import { checkListOptions } from '../../lib/hub/list-options.ts'
import {
  FRESHNESS_WAIT_MS,
  parseResourceVersion,
  waitForResourceVersion,
} from '../../lib/hub/resource-version.ts'
import { servedAt, type Target } from '../../lib/hub/target.ts'
import { apiVersionOf } from '../../lib/kube/request-path.ts'
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
}

const enc = new TextEncoder()
const line = (v: unknown) => enc.encode(`${JSON.stringify(v)}\n`)
const eventLine = (p: WatchParams, v: unknown) => line(p.transform ? p.transform(v) : v)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function initialEvents(
  deps: HubDeps,
  p: WatchParams
): Promise<{ events: unknown[]; rv: number }> {
  const { target: t } = p
  const res = await deps.objects.list({
    cluster: p.allSpaces ? '*' : t.space.id,
    group: t.info.group,
    resource: t.info.resource,
    ...(t.namespace ? { namespace: t.namespace } : {}),
    predicate: p.predicate,
    watchable: true,
  })
  return {
    events: res.items.map((o) => ({ type: 'ADDED', object: servedAt(t, o) })),
    rv: Number(res.resourceVersion),
  }
}

/** Tracks what was sent, and the cursor below which everything has settled. */
type Cursor = {
  low: number
  highest: number
  sent: Map<number, number>
  /** Set when the watch resumes from a watchable list's version. */
  resume?: ResumePoint
  /** When the last poll began, if it read everything there was and brought nothing new. */
  polledAt?: number
  /** When the last poll began, whatever it brought (the store skips its watermark read then). */
  lastPollAt?: number
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

async function pollOnce(
  deps: HubDeps,
  p: WatchParams,
  cur: Cursor,
  emit: (v: unknown) => void
): Promise<{ more: boolean; events: number; polledAt: number }> {
  const { target: t } = p
  const res = await deps.objects.changes({
    cluster: p.allSpaces ? '*' : t.space.id,
    group: t.info.group,
    resource: t.info.resource,
    ...(t.namespace ? { namespace: t.namespace } : {}),
    sinceRv: cur.low,
    ...(cur.lastPollAt === undefined ? {} : { previousPollAt: cur.lastPollAt }),
  })
  cur.lastPollAt = res.polledAt
  const now = Date.now()
  // One manifest write yields several events with one rv; they always come back together, so
  // only rvs sent by earlier polls are skipped.
  const seen = new Set(cur.sent.keys())
  for (const ev of res.events) {
    if (seen.has(ev.rv)) continue
    cur.sent.set(ev.rv, now)
    cur.highest = Math.max(cur.highest, ev.rv)
    if (alreadyListed(cur, ev)) continue
    if (p.predicate(ev.object)) emit({ type: ev.type, object: servedAt(t, ev.object) })
  }
  for (const [rv, at] of cur.sent)
    if (now - at > (p.settleMs ?? REREAD_WINDOW_MS)) {
      cur.low = Math.max(cur.low, rv)
      cur.sent.delete(rv)
    }
  // Nothing at or below the cursor is read again: past the list's version, resuming is done.
  if (cur.resume && cur.low >= cur.resume.upTo) cur.resume = undefined
  return { more: res.more, events: res.events.length, polledAt: res.polledAt }
}

function bookmark(t: Target, rv: number, initialEventsEnd = false): unknown {
  const apiVersion = apiVersionOf(t.info.group, t.version)
  const metadata = {
    resourceVersion: String(rv),
    ...(initialEventsEnd ? { annotations: { 'k8s.io/initial-events-end': 'true' } } : {}),
  }
  return { type: 'BOOKMARK', object: { kind: t.info.kind, apiVersion, metadata } }
}

/** kube's watch timeout: timeoutSeconds when positive, none left when negative, else 30 min. */
function deadlineOf(timeoutSeconds: number | undefined): number {
  const s = timeoutSeconds ?? 0
  return Date.now() + (s === 0 ? 1800 : Math.min(s, 3600)) * 1000
}

/**
 * Where the stream starts: after the initial events when they are asked for, else at the
 * requested version (once the store has reached it) or the current one.
 */
async function startCursor(
  deps: HubDeps,
  p: WatchParams,
  deadline: number,
  emit: (v: unknown) => void
): Promise<Omit<Cursor, 'highest' | 'sent'>> {
  const rv = parseResourceVersion(p.resourceVersion)
  const wait = Math.max(0, Math.min(p.freshWaitMs ?? FRESHNESS_WAIT_MS, deadline - Date.now()))
  const current = rv > 0n ? await waitForResourceVersion(deps.objects, rv, wait) : undefined
  if (p.sendInitialEvents) {
    const init = await initialEvents(deps, p)
    for (const e of init.events) emit(e)
    if (p.bookmarks) emit(bookmark(p.target, init.rv, true))
    return resumeAt(deps, p, init.rv)
  }
  if (rv > 0n) return resumeAt(deps, p, Number(rv))
  return { low: current ?? (await deps.objects.currentRv()) }
}

/** After `rv`, or, when `rv` is a watchable list's, from where that list may have missed writes. */
async function resumeAt(
  deps: HubDeps,
  p: WatchParams,
  rv: number
): Promise<Pick<Cursor, 'low' | 'resume'>> {
  const { target: t } = p
  const collection = {
    cluster: p.allSpaces ? '*' : t.space.id,
    group: t.info.group,
    resource: t.info.resource,
  }
  const resume = await deps.objects.resumePoint(collection, rv)
  return resume ? { low: resume.sinceRv, resume } : { low: rv }
}

/**
 * A poll, unless the last one read everything there was and the store's change signal says
 * nothing more can be handed out yet (lib/store/change-signal.ts); `waitMs` is how long until
 * something can (Infinity after a poll, or while nothing can until the counter moves).
 */
async function pollIfChanged(
  deps: HubDeps,
  p: WatchParams,
  cur: Cursor,
  emit: (v: unknown) => void
): Promise<{ polled: boolean; events: number; waitMs: number }> {
  const waitMs = cur.polledAt === undefined ? 0 : await deps.objects.pollDelay(cur.polledAt)
  if (waitMs > 0) return { polled: false, events: 0, waitMs }
  const res = await pollOnce(deps, p, cur, emit)
  // While changes flow, poll on at the base interval without asking: the shared counter value
  // may be up to 250 ms old, which would delay the next event by as much.
  cur.polledAt = res.more || res.events > 0 ? undefined : res.polledAt
  return { polled: true, events: res.events, waitMs: Number.POSITIVE_INFINITY }
}

/** The watch loop: initial events when asked, then poll until closed or past the deadline. */
async function streamEvents(
  deps: HubDeps,
  p: WatchParams,
  emit: (v: unknown) => void,
  isOpen: () => boolean
): Promise<void> {
  const deadline = deadlineOf(p.timeoutSeconds)
  if (Date.now() >= deadline) return
  const start = await startCursor(deps, p, deadline, emit)
  // Bookmarks never go below the version the client resumed from.
  const highest = Math.max(start.low, start.resume?.upTo ?? 0)
  const cur: Cursor = { ...start, highest, sent: new Map() }
  let lastBookmark = Date.now()
  const base = p.pollMs ?? 200
  const idle = Math.max(base, p.idlePollMs ?? 1000)
  let interval = base
  const inv = currentInvocation()
  const ceiling = inv?.shareAt(SHARES.watch) ?? Number.POSITIVE_INFINITY
  let pollCost = 1
  let polls = 0
  while (isOpen() && Date.now() < deadline) {
    const used = inv?.subrequests ?? 0
    if (used + pollCost > ceiling) {
      deps.log.debug('watch ended before its budget', { polls, subrequests: used })
      if (p.bookmarks) emit(bookmark(p.target, cur.highest))
      return
    }
    const turn = await pollIfChanged(deps, p, cur, emit)
    polls += Number(turn.polled)
    pollCost = Math.max(pollCost, (inv?.subrequests ?? 0) - used)
    if (p.bookmarks && Date.now() - lastBookmark > 10_000) {
      lastBookmark = Date.now()
      emit(bookmark(p.target, cur.highest))
    }
    // quiet watches back off (most of a relay's watches are quiet most of the time)
    interval = turn.events > 0 ? base : Math.min(idle, interval * 2)
    if (cur.polledAt !== undefined) await sleep(Math.min(interval, turn.waitMs))
  }
}

/** Validates the options (400/422 before any byte is sent) and opens the stream. */
export function watchResponse(deps: HubDeps, params: WatchParams): Response {
  const p = checkListOptions({ ...params, watch: true })
  parseResourceVersion(p.resourceVersion)
  let closed = false
  const inv = currentInvocation()
  if (inv) inv.kind = 'watch'
  const ended = inv?.hold() ?? (() => {})
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const emit = (v: unknown) => controller.enqueue(eventLine(p, v))
      try {
        await streamEvents(deps, p, emit, () => !closed)
      } catch (e) {
        if (!closed && isApiError(e)) emit({ type: 'ERROR', object: e.toStatus() })
        else if (!closed) deps.log.error('watch failed', { error: e })
      }
      if (!closed) controller.close()
      ended()
    },
    cancel() {
      closed = true
      ended()
    },
  })
  return new Response(stream, {
    status: 200,
    headers: {
      'Content-Type': 'application/json',
      'Content-Encoding': 'identity',
      'Cache-Control': 'no-cache',
    },
  })
}
