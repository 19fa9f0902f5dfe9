/**
 * Watch: a newline-delimited JSON stream of {type, object} events, served by polling the store's
 * change log. Starting without a resourceVersion (or with "0") first sends the current objects as
 * ADDED. Bookmarks are sent when asked for; the stream ends after timeoutSeconds; a too-old
 * resourceVersion ends it with an ERROR event carrying a 410 Expired Status. Because writers take a
 * resourceVersion before they commit, a change with a lower version can land just after a higher
 * one: the loop re-reads a short window behind its cursor and skips what it already sent.
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
  /** How often the change log is polled. */
  pollMs?: number
  /** How far behind the cursor to look for late commits. */
  settleMs?: number
}

const enc = new TextEncoder()
const line = (v: unknown) => enc.encode(`${JSON.stringify(v)}\n`)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function initialEvents(deps: HubDeps, p: WatchParams): Promise<{ events: unknown[]; rv: number }> {
  const { target: t } = p
  const res = await deps.objects.list({
    cluster: p.allSpaces ? '*' : t.space.id,
    group: t.info.group,
    resource: t.info.resource,
    ...(t.namespace ? { namespace: t.namespace } : {}),
    predicate: p.predicate,
  })
  return { events: res.items.map((o) => ({ type: 'ADDED', object: servedAt(t, o) })), rv: Number(res.resourceVersion) }
}

export function watchResponse(deps: HubDeps, p: WatchParams): Response {
  const { target: t } = p
  const pollMs = p.pollMs ?? 200
  const settleMs = p.settleMs ?? 2000
  const deadline = Date.now() + Math.min(p.timeoutSeconds ?? 1800, 3600) * 1000
  let closed = false
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        let low = Number(p.resourceVersion ?? '0')
        if (!p.resourceVersion || p.resourceVersion === '0') {
          const init = await initialEvents(deps, p)
          for (const e of init.events) controller.enqueue(line(e))
          low = init.rv
        }
        const sent = new Map<number, number>() // rv -> when first sent
        let lastBookmark = Date.now()
        let highest = low
        while (!closed && Date.now() < deadline) {
          const res = await deps.objects.changes({
            cluster: p.allSpaces ? '*' : t.space.id,
            group: t.info.group,
            resource: t.info.resource,
            ...(t.namespace ? { namespace: t.namespace } : {}),
            sinceRv: low,
          })
          const now = Date.now()
          for (const ev of res.events) {
            if (sent.has(ev.rv)) continue
            sent.set(ev.rv, now)
            highest = Math.max(highest, ev.rv)
            if (!p.predicate(ev.object)) continue
            controller.enqueue(line({ type: ev.type, object: servedAt(t, ev.object) }))
          }
          for (const [rv, at] of sent)
            if (now - at > settleMs) {
              low = Math.max(low, rv)
              sent.delete(rv)
            }
          if (p.bookmarks && now - lastBookmark > 10_000) {
            lastBookmark = now
            const apiVersion = apiVersionOf(t.info.group, t.version)
            controller.enqueue(line({ type: 'BOOKMARK', object: { kind: t.info.kind, apiVersion, metadata: { resourceVersion: String(highest) } } }))
          }
          if (!res.more) await sleep(pollMs)
        }
      } catch (e) {
        if (!closed && isApiError(e)) controller.enqueue(line({ type: 'ERROR', object: e.toStatus() }))
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
