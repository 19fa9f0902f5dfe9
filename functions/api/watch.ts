/**
 * Watch: a newline-delimited JSON stream of {type, object} events, served by polling the store's
 * change log. Starting without a resourceVersion (or with "0") first sends the current objects as
 * ADDED. Bookmarks are sent when asked for; the stream ends after timeoutSeconds; a too-old
 * resourceVersion ends it with an ERROR event carrying a 410 Expired Status. Because writers take a
 * resourceVersion before they commit, a change with a lower version can land just after a higher
 * one: the loop re-reads a short window behind its cursor and skips what it already sent. A quiet
 * watch polls less often (the interval doubles per empty poll, up to `idlePollMs`), so many idle
 * watches cost little; the first change after a quiet spell waits at most that long.
 * `Content-Encoding: identity` keeps wrangler dev from buffering the stream through gzip.
 */
import { isApiError } from '../../lib/errors.ts'
import type { HubDeps } from '../../lib/hub/deps.ts'
import { servedAt, type Target } from '../../lib/hub/target.ts'
import { apiVersionOf } from '../../lib/kube/request-path.ts'
import type { KubeObject } from '../../lib/kube/types.ts'

export type WatchParams = {
  target: Target
  allSpaces: boolean
  resourceVersion?: string
  predicate: (obj: KubeObject) => boolean
  bookmarks: boolean
  timeoutSeconds?: number
  /** How often the change log is polled while changes are flowing. */
  pollMs?: number
  /** The slowest poll while nothing changes: empty polls double the interval up to this. */
  idlePollMs?: number
  /** How far behind the cursor to look for late commits. */
  settleMs?: number
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
  })
  return {
    events: res.items.map((o) => ({ type: 'ADDED', object: servedAt(t, o) })),
    rv: Number(res.resourceVersion),
  }
}

/** Tracks what was sent, and the cursor below which everything has settled. */
type Cursor = { low: number; highest: number; sent: Map<number, number> }

async function pollOnce(
  deps: HubDeps,
  p: WatchParams,
  cur: Cursor,
  emit: (v: unknown) => void
): Promise<{ more: boolean; events: number }> {
  const { target: t } = p
  const res = await deps.objects.changes({
    cluster: p.allSpaces ? '*' : t.space.id,
    group: t.info.group,
    resource: t.info.resource,
    ...(t.namespace ? { namespace: t.namespace } : {}),
    sinceRv: cur.low,
  })
  const now = Date.now()
  // One manifest write yields several events with one rv; they always come back together, so
  // only rvs sent by earlier polls are skipped.
  const seen = new Set(cur.sent.keys())
  for (const ev of res.events) {
    if (seen.has(ev.rv)) continue
    cur.sent.set(ev.rv, now)
    cur.highest = Math.max(cur.highest, ev.rv)
    if (p.predicate(ev.object)) emit({ type: ev.type, object: servedAt(t, ev.object) })
  }
  for (const [rv, at] of cur.sent)
    if (now - at > (p.settleMs ?? 2000)) {
      cur.low = Math.max(cur.low, rv)
      cur.sent.delete(rv)
    }
  return { more: res.more, events: res.events.length }
}

function bookmark(t: Target, rv: number): unknown {
  const apiVersion = apiVersionOf(t.info.group, t.version)
  return {
    type: 'BOOKMARK',
    object: { kind: t.info.kind, apiVersion, metadata: { resourceVersion: String(rv) } },
  }
}

/** The watch loop: initial events when asked, then poll until closed or past the deadline. */
async function streamEvents(
  deps: HubDeps,
  p: WatchParams,
  emit: (v: unknown) => void,
  isOpen: () => boolean
): Promise<void> {
  const deadline = Date.now() + Math.min(p.timeoutSeconds ?? 1800, 3600) * 1000
  const cur: Cursor = { low: Number(p.resourceVersion ?? '0'), highest: 0, sent: new Map() }
  if (!p.resourceVersion || p.resourceVersion === '0') {
    const init = await initialEvents(deps, p)
    for (const e of init.events) emit(e)
    cur.low = init.rv
  }
  cur.highest = cur.low
  let lastBookmark = Date.now()
  const base = p.pollMs ?? 200
  const idle = Math.max(base, p.idlePollMs ?? 1000)
  let interval = base
  while (isOpen() && Date.now() < deadline) {
    const { more, events } = await pollOnce(deps, p, cur, emit)
    if (p.bookmarks && Date.now() - lastBookmark > 10_000) {
      lastBookmark = Date.now()
      emit(bookmark(p.target, cur.highest))
    }
    // quiet watches back off (most of a relay's watches are quiet most of the time)
    interval = events > 0 ? base : Math.min(idle, interval * 2)
    if (!more) await sleep(interval)
  }
}

export function watchResponse(deps: HubDeps, p: WatchParams): Response {
  let closed = false
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
    },
    cancel() {
      closed = true
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
