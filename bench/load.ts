/**
 * Drives a fixed number of operations through a fixed number of workers (a closed loop: each
 * worker starts its next operation when the previous one finished) and measures the wall time and
 * each operation's latency. The first failure stops the other workers from starting more and is
 * rethrown. The clock is injectable for tests.
 */
import { opsPerSecond, type Summary, summarize } from './stats.ts'

export type LoadResult = {
  ops: number
  concurrency: number
  elapsedMs: number
  opsPerSec: number
  latencyMs: Summary
}

export type LoadOptions = {
  count: number
  concurrency: number
  /** Milliseconds, monotonic; default performance.now. */
  clock?: () => number
}

/** Runs `op(0) .. op(count - 1)` with at most `concurrency` in flight. */
export async function runLoad(
  opts: LoadOptions,
  op: (index: number) => Promise<unknown>
): Promise<LoadResult> {
  const { count } = opts
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`bad count ${count}`)
  if (!Number.isInteger(opts.concurrency) || opts.concurrency < 1)
    throw new RangeError(`bad concurrency ${opts.concurrency}`)
  const clock = opts.clock ?? (() => performance.now())
  const concurrency = Math.min(opts.concurrency, Math.max(1, count))
  const latencies: number[] = []
  let next = 0
  let failed = false
  const worker = async () => {
    while (!failed && next < count) {
      const index = next++
      const t0 = clock()
      try {
        await op(index)
      } catch (e) {
        failed = true
        throw e
      }
      latencies.push(clock() - t0)
    }
  }
  const start = clock()
  await Promise.all(Array.from({ length: concurrency }, worker))
  const elapsedMs = clock() - start
  return {
    ops: count,
    concurrency,
    elapsedMs,
    opsPerSec: opsPerSecond(count, elapsedMs),
    latencyMs: summarize(latencies),
  }
}
