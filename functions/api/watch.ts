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
 * short window behind its cursor and skips what it already sent; those re-read entries are not
 * news, so while changes flow a watch polls once per base interval from each poll's start (at
 * once only after a full page), never back to back through its re-read window. A quiet watch
 * polls less often (the interval doubles per empty poll, up to `idlePollMs`; the first change
 * after a quiet spell waits at most that long), and before each poll after a complete one it
 * asks the store's change signal (lib/store/change-signal.ts) whether anything can be new: while
 * nothing can, it sends no request of its own, so many idle watches cost one shared counter read,
 * and after a write elsewhere it polls once when it learns of it and once when that write has
 * settled.
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
import {
  basePollMs,
  type Cursor,
  pollIfChanged,
  type WatchParams,
  watchedCollection,
} from './watch-poll.ts'

import { createEventWriter, type EventWriter } from './watch-writer.ts'

export type { WatchParams } from './watch-poll.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function initialEvents(
  deps: HubDeps,
  p: WatchParams
): Promise<{ events: unknown[]; rv: number }> {
  const { target: t } = p
  const res = await deps.objects.list({
    ...watchedCollection(p),
    predicate: p.predicate,
    watchable: true,
  })
  if (p.prepare) await p.prepare(res.items)
  return {
    events: res.items.map((o) => ({ type: 'ADDED', object: servedAt(t, o) })),
    rv: Number(res.resourceVersion),
  }
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

/** The watch loop: initial events when asked, then poll until closed or past the deadline. */
async function streamEvents(
  deps: HubDeps,
  p: WatchParams,
  out: EventWriter,
  isOpen: () => boolean
): Promise<void> {
  const emit = out.emit
  const deadline = deadlineOf(p.timeoutSeconds)
  if (Date.now() >= deadline) return
  const start = await startCursor(deps, p, deadline, emit)
  out.flush()
  // Bookmarks never go below the version the client resumed from.
  const highest = Math.max(start.low, start.resume?.upTo ?? 0)
  const cur: Cursor = { ...start, highest, sent: new Map() }
  let lastBookmark = Date.now()
  const base = basePollMs(p)
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
    out.flush()
    polls += Number(turn.polled)
    pollCost = Math.max(pollCost, (inv?.subrequests ?? 0) - used)
    if (p.bookmarks && Date.now() - lastBookmark > 10_000) {
      lastBookmark = Date.now()
      emit(bookmark(p.target, cur.highest))
      out.flush()
    }
    // quiet watches back off (most of a relay's watches are quiet most of the time)
    interval = turn.events > 0 ? base : Math.min(idle, interval * 2)
    const due = cur.polledAt === undefined ? turn.waitMs : Math.min(interval, turn.waitMs)
    // A token past its event share waits for it before its next poll (its own watches lag).
    const owed = turn.events > 0 ? (p.pace?.(turn.events) ?? 0) : 0
    const wait = Math.max(due, Math.min(owed, Math.max(0, deadline - Date.now())))
    if (wait > 0) await sleep(wait)
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
      const out = createEventWriter((chunk) => controller.enqueue(chunk), p.transform)
      try {
        await streamEvents(deps, p, out, () => !closed)
      } catch (e) {
        if (!closed && isApiError(e)) out.emit({ type: 'ERROR', object: e.toStatus() })
        else if (!closed) deps.log.error('watch failed', { error: e })
      }
      if (!closed) {
        out.flush()
        controller.close()
      }
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
