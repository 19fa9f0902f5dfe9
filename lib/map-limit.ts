/**
 * Bounded concurrency over a list: the edge agent's applies and the summarize step's reads each run
 * at most a few requests at once. Plain promises, no runtime API, so the Worker and Node share it.
 * When a call fails, no further call starts, and the failure is thrown only once the calls in
 * flight have settled: a caller never returns while work it started (a write and its change-log
 * entry) is still running, which in a Worker would be cut off when the invocation ends.
 */

/** Runs `fn` over `items` with at most `limit` calls in flight; results keep the input order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>
): Promise<R[]> {
  const out: R[] = new Array(items.length)
  let next = 0
  let failure: { error: unknown } | undefined
  const worker = async () => {
    while (next < items.length && !failure) {
      const i = next++
      try {
        out[i] = await fn(items[i] as T)
      } catch (error) {
        failure ??= { error }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  if (failure) throw failure.error
  return out
}
