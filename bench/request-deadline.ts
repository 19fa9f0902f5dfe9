/**
 * A bench fleet request's signal: aborted `timeoutMs` after it was made (a `TimeoutError`, as
 * `AbortSignal.timeout` aborts) or when `stop` aborts, released with `done()` once the answer is
 * in. Not `AbortSignal.any([AbortSignal.timeout(ms), stop])`: under Node 20 the timeout signal,
 * held only weakly through the combined one, can be collected before it fires (200 requests to a
 * silent server never ended), and under Node 22 each combined signal is registered on the
 * long-lived `stop`, which a fleet making hundreds of thousands of requests pays in its own CPU
 * and heap (20,000 local fetches took 10 s instead of 3.6 s). Here the timer holds the
 * controller, and the listener on `stop` goes with the timer.
 */
export type RequestDeadline = { signal: AbortSignal; done(): void }

export function requestDeadline(timeoutMs: number, stop: AbortSignal): RequestDeadline {
  const c = new AbortController()
  const onStop = () => c.abort(stop.reason)
  const timer = setTimeout(
    () => c.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    timeoutMs
  )
  if (stop.aborted) onStop()
  else stop.addEventListener('abort', onStop, { once: true })
  return {
    signal: c.signal,
    done() {
      clearTimeout(timer)
      stop.removeEventListener('abort', onStop)
    },
  }
}
