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
 * CPU (20,000 local fetches took 10 s instead of 3.6 s). Here the parents hold one listener
 * each until the release, and the timer (unref'd: it never keeps a process up) holds the rest.
 */
export type LinkedSignal = {
  readonly signal: AbortSignal
  /** Aborts the signal (reason default an AbortError, as AbortController's) and releases it. */
  abort(reason?: unknown): void
  /** Lets go of the parents and the timer; the signal stays as it is. */
  release(): void
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
  const release = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    for (const p of linked) p.removeEventListener('abort', onAbort)
  }
  const abort = (reason?: unknown) => {
    if (!c.signal.aborted) c.abort(reason)
    release()
  }
  function onAbort(this: AbortSignal) {
    abort(this.reason)
  }
  const fired = linked.find((p) => p.aborted)
  if (fired) {
    c.abort(fired.reason)
    return { signal: c.signal, abort, release }
  }
  for (const p of linked) p.addEventListener('abort', onAbort, { once: true })
  if (timeoutMs !== undefined) {
    timer = setTimeout(() => abort(timeoutError()), timeoutMs)
    ;(timer as { unref?: () => void }).unref?.()
  }
  return { signal: c.signal, abort, release }
}
