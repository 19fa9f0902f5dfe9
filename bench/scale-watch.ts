/**
 * A watch that lasts: `follow` opens `path?watch=1` on the hub from a given resourceVersion (a
 * list's, taken before the timed work began, so nothing after it is missed however late the watch
 * opens) and hands each event to `onEvent`, opening it again from the last resourceVersion seen
 * whenever the server ends it (the Worker
 * ends watches within its budget; clients re-watch, as kube clients do), until `done()` says so,
 * `signal` aborts or `timeoutMs` passes (then it rejects). An `ERROR` event (410 Gone) is fatal:
 * the measure would have a hole.
 */
import type { Remote } from '../lib/remote/remote-client.ts'

export type WatchEvent = {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR'
  object: {
    metadata?: {
      name?: string
      namespace?: string
      resourceVersion?: string
      annotations?: Record<string, string>
    }
    spec?: { cluster?: string }
    status?: { phase?: string }
    data?: Record<string, string>
    [k: string]: unknown
  }
}

export type FollowOptions = {
  onEvent(e: WatchEvent): void
  done(): boolean
  timeoutMs: number
  /** Start from this resourceVersion: a list's, taken before what is timed began. */
  resourceVersion: string
}

export async function follow(hub: Remote, path: string, o: FollowOptions): Promise<void> {
  const deadline = Date.now() + o.timeoutMs
  let rv = o.resourceVersion
  while (!o.done()) {
    if (Date.now() > deadline) throw new Error(`watch ${path}: not done after ${o.timeoutMs} ms`)
    const ac = new AbortController()
    const timer = setTimeout(() => ac.abort(), Math.max(1, deadline - Date.now()))
    try {
      const query = { watch: '1', allowWatchBookmarks: 'true', resourceVersion: rv }
      const stream = hub.watch(path, { query, signal: ac.signal })
      for await (const raw of stream) {
        const e = raw as WatchEvent
        if (e.type === 'ERROR') throw new Error(`watch ${path}: ${JSON.stringify(e.object)}`)
        rv = e.object.metadata?.resourceVersion ?? rv
        if (e.type !== 'BOOKMARK') o.onEvent(e)
        if (o.done()) break
      }
    } catch (e) {
      if (!ac.signal.aborted) throw e
    } finally {
      clearTimeout(timer)
      ac.abort()
    }
  }
}
