/**
 * A signal for one operation inside a longer one: aborted when any of its parents aborts (with
 * that parent's reason), when `timeoutMs` passes (a `TimeoutError`, as `AbortSignal.timeout`
 * aborts), or by `abort()`; `release()` (which `abort()` and the timeout also do) lets go of the
 * parents and the timer, so a long-lived parent (an agent's or a fleet's stop) keeps nothing of
 * an operation that has ended.
 *
 * Not `AbortSignal.any`: Node keeps every combined signal that was observed (fetch and timers
 * observe theirs) in the long-lived source's dependants once it has aborted — never collected,
 * nodejs/node#64476, in Node 22 and 24 — so an agent combining its stop with each poll's own
 * signal grew by a few every interval for as long as it ran; under Node 20 a timeout held only
 * through a combined signal could be collected before it fired (a request to a silent server
 * never ended); and a fleet making hundreds of thousands of requests paid for the dependants in
 * CPU (20,000 local fetches took 10 s instead of 3.6 s). Here a parent holds one listener of its
 * own whatever follows it (the first link adds it; a fleet's stop followed by 10,000 requests
 * would otherwise hold 10,000 listeners, each add and remove a walk of them) and a set of the
 * signals following it now; the timer (unref'd: it never keeps a process up) holds the rest.
 */
export type LinkedSignal = {
  readonly signal: AbortSignal
  /** Aborts the signal (reason default an AbortError, as AbortController's) and releases it. */
  abort(reason?: unknown): void
  /** Lets go of the parents and the timer; the signal stays as it is. */
  release(): void
}

/** What follows each parent now: the parent's one listener aborts them all. */
const following = new WeakMap<AbortSignal, Set<(reason: unknown) => void>>()

/** Follows `parent` until the returned function is called. */
function follow(parent: AbortSignal, onAbort: (reason: unknown) => void): () => void {
  let set = following.get(parent)
  if (!set) {
    const followers = new Set<(reason: unknown) => void>()
    const abortAll = () => {
      for (const f of [...followers]) f(parent.reason)
      followers.clear()
    }
    parent.addEventListener('abort', abortAll, { once: true })
    following.set(parent, followers)
    set = followers
  }
  set.add(onAbort)
  const mine = set
  return () => mine.delete(onAbort)
}

/** How many linked signals follow `parent` now (its record, for tests and diagnostics). */
export function followersOf(parent: AbortSignal): number {
  return following.get(parent)?.size ?? 0
}

const timeoutError = () =>
  new DOMException('The operation was aborted due to timeout', 'TimeoutError')

export function linkedSignal(
  parents: readonly (AbortSignal | undefined)[],
  timeoutMs?: number
): LinkedSignal {
  const c = new AbortController()
  const linked = parents.filter((p): p is AbortSignal => p !== undefined)
  let timer: ReturnType<typeof setTimeout> | undefined
  let unfollow: (() => void)[] = []
  const release = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    for (const u of unfollow) u()
    unfollow = []
  }
  const abort = (reason?: unknown) => {
    if (!c.signal.aborted) c.abort(reason)
    release()
  }
  const fired = linked.find((p) => p.aborted)
  if (fired) {
    c.abort(fired.reason)
    return { signal: c.signal, abort, release }
  }
  unfollow = linked.map((p) => follow(p, abort))
  if (timeoutMs !== undefined) {
    timer = setTimeout(() => abort(timeoutError()), timeoutMs)
    ;(timer as { unref?: () => void }).unref?.()
  }
  return { signal: c.signal, abort, release }
}
