/**
 * Small statistics for the benchmark: nearest-rank percentiles, a latency summary (count, min,
 * mean, p50/p90/p99, max) of a list of samples in milliseconds, operations per second and a
 * guarded ratio. Pure functions, no I/O.
 */

export type Summary = {
  count: number
  min: number
  mean: number
  p50: number
  p90: number
  p99: number
  max: number
}

/** Nearest-rank percentile (0 < p <= 100) of an ascending list; NaN when it is empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be in (0, 100], got ${p}`)
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!
}

/** Summary of samples (any order); every figure is NaN when there are none. */
export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b)
  const count = sorted.length
  const mean = count === 0 ? Number.NaN : sorted.reduce((sum, x) => sum + x, 0) / count
  return {
    count,
    min: count === 0 ? Number.NaN : sorted[0]!,
    mean,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: count === 0 ? Number.NaN : sorted[count - 1]!,
  }
}

/** `count` operations in `elapsedMs` milliseconds, per second; NaN for a non-positive time. */
export function opsPerSecond(count: number, elapsedMs: number): number {
  return elapsedMs > 0 ? (count * 1000) / elapsedMs : Number.NaN
}

/** a / b, or NaN when either is not a positive finite number. */
export function ratio(a: number, b: number): number {
  const ok = (x: number) => Number.isFinite(x) && x > 0
  return ok(a) && ok(b) ? a / b : Number.NaN
}

/** Rounds to `digits` decimals, keeping NaN as null so the value survives JSON. */
export function round(x: number, digits = 1): number | null {
  if (!Number.isFinite(x)) return null
  const f = 10 ** digits
  return Math.round(x * f) / f
}
