/**
 * Windows of a long positional list (the matrix's edge columns, the edges view's rows), fetched
 * by `offset`/`limit` as the view scrolls: the windows in view first, then one on each side;
 * never more than `maxInFlight` requests at once (a request for a window scrolled past is
 * aborted); windows far from the view are dropped. A refresh re-fetches the windows in view (the
 * others when they come into view) and keeps showing the old data until the new arrives. A window
 * the server refused as a bad request (a 4xx other than 401, 408 and 429: a malformed label
 * selector) is not asked for again, not even by a refresh: the same question gets the same answer.
 */
import { isAbort } from './api.js'

const RETRY_AFTER_MS = 5000

/** Whether asking again cannot help: the request itself is wrong. */
export const refused = (e) =>
  typeof e?.code === 'number' && e.code >= 400 && e.code < 500 && ![401, 408, 429].includes(e.code)

/**
 * opts: size (items per window), load(offset, limit, signal) → Promise<data>, totalOf(data),
 * onLoad(offset, data), onError(error), maxInFlight (2), keep (windows kept each side, 4).
 */
export function createWindowCache(opts) {
  const size = opts.size
  const maxInFlight = opts.maxInFlight ?? 2
  const keep = opts.keep ?? 4
  const windows = new Map() // offset → { data, gen }
  const inflight = new Map() // offset → AbortController
  const failedAt = new Map() // offset → ms
  let gen = 0
  let wanted = []
  let visible = []
  let range = { first: 0, last: 0 }
  let total = null
  let timer = 0
  let disposed = false

  const windowOf = (i) => Math.floor(i / size) * size

  function prune() {
    const lo = windowOf(range.first) - keep * size
    const hi = windowOf(range.last) + keep * size
    for (const offset of windows.keys()) if (offset < lo || offset > hi) windows.delete(offset)
  }

  function start(offset) {
    const ctrl = new AbortController()
    const at = gen
    inflight.set(offset, ctrl)
    opts
      .load(offset, size, ctrl.signal)
      .then((data) => {
        if (disposed || ctrl.signal.aborted) return
        windows.set(offset, { data, gen: at })
        failedAt.delete(offset)
        total = opts.totalOf(data)
        prune()
        opts.onLoad(offset, data)
      })
      .catch((e) => {
        if (isAbort(e) || disposed) return
        failedAt.set(offset, refused(e) ? Number.POSITIVE_INFINITY : Date.now())
        opts.onError?.(e)
      })
      .finally(() => {
        if (inflight.get(offset) === ctrl) inflight.delete(offset)
        if (!disposed) schedule(0)
      })
  }

  /** An outdated window is re-fetched only while in view; one beside it only if missing. */
  function needs(offset) {
    if (inflight.has(offset)) return false
    const w = windows.get(offset)
    if (w && (w.gen === gen || !visible.includes(offset))) return false
    const failed = failedAt.get(offset)
    return failed === undefined || Date.now() - failed > RETRY_AFTER_MS
  }

  function pump() {
    timer = 0
    if (disposed) return
    for (const offset of wanted) {
      if (inflight.size >= maxInFlight) break
      if (needs(offset)) start(offset)
    }
  }

  function schedule(delay) {
    if (timer) return
    timer = setTimeout(pump, delay)
  }

  /** The view shows items first..last (inclusive): fetch what they need. */
  function ensure(first, last) {
    range = { first, last: Math.max(first, last) }
    const inView = []
    for (let o = windowOf(range.first); o <= windowOf(range.last); o += size) inView.push(o)
    const around = [inView[0] - size, inView[inView.length - 1] + size].filter(
      (o) => o >= 0 && (total === null || o < total)
    )
    visible = inView
    wanted = [...inView, ...around]
    for (const [offset, ctrl] of inflight) {
      if (!wanted.includes(offset)) {
        ctrl.abort()
        inflight.delete(offset)
      }
    }
    schedule(40)
  }

  return {
    size,
    /** The data of the window holding item `i`, if fetched (possibly outdated). */
    windowAt: (i) => windows.get(windowOf(i))?.data,
    /** Whether item i's window is fetched for the current generation. */
    fresh: (i) => windows.get(windowOf(i))?.gen === gen,
    ensure,
    /** Re-fetch what is in view, showing the old data meanwhile. */
    refresh() {
      gen++
      for (const [offset, at] of failedAt)
        if (at !== Number.POSITIVE_INFINITY) failedAt.delete(offset)
      for (const ctrl of inflight.values()) ctrl.abort()
      inflight.clear()
      ensure(range.first, range.last)
    },
    inFlight: () => inflight.size,
    dispose() {
      disposed = true
      clearTimeout(timer)
      for (const ctrl of inflight.values()) ctrl.abort()
      inflight.clear()
      windows.clear()
    },
  }
}
