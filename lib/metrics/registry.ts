/**
 * An in-process metrics registry: counters, gauges and histograms with labels, rendered in the
 * Prometheus text exposition format (version 0.0.4) by prometheus-text.ts. The edge agent and the
 * relay serve one process's registry on `/metrics`; the Worker, whose isolates are many and
 * short-lived, keeps one per isolate and flushes its deltas to the store (see docs/ARCHITECTURE.md,
 * "Metrics"). Names and labels are fixed by the code, never taken from requests unchecked.
 */

export type Labels = Record<string, string>
export type MetricType = 'counter' | 'gauge' | 'histogram'

export type Series = { labels: Labels; value: number }
export type HistogramSeries = { labels: Labels; buckets: number[]; sum: number; count: number }

/** A histogram family as `MetricsRegistry.observe` names it. */
export type HistogramSpec = { name: string; help: string; bounds?: readonly number[] | undefined }

export type MetricFamily = {
  name: string
  help: string
  type: MetricType
  /** Upper bounds of the histogram buckets (ascending, without +Inf). */
  bounds?: readonly number[]
  series: Map<string, Series | HistogramSeries>
}

/** Default histogram bounds for durations in seconds. */
export const DURATION_BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

const seriesKey = (labels: Labels) =>
  JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)))

export class MetricsRegistry {
  readonly families = new Map<string, MetricFamily>()

  private family(
    name: string,
    help: string,
    type: MetricType,
    bounds?: readonly number[]
  ): MetricFamily {
    let f = this.families.get(name)
    if (!f) {
      f = { name, help, type, bounds, series: new Map() }
      this.families.set(name, f)
    } else if (f.type !== type) {
      throw new Error(`metric ${name} registered as ${f.type}, used as ${type}`)
    }
    return f
  }

  /** Adds `by` (default 1) to a counter series. */
  inc(name: string, help: string, labels: Labels = {}, by = 1): void {
    const f = this.family(name, help, 'counter')
    const k = seriesKey(labels)
    const s = f.series.get(k) as Series | undefined
    if (s) s.value += by
    else f.series.set(k, { labels: { ...labels }, value: by })
  }

  /** Sets a gauge series. */
  set(name: string, help: string, labels: Labels, value: number): void {
    const f = this.family(name, help, 'gauge')
    f.series.set(seriesKey(labels), { labels: { ...labels }, value })
  }

  /**
   * Records one observation into a histogram series; `histogram.bounds` (default DURATION_BOUNDS)
   * apply when the family is first used.
   */
  observe(histogram: HistogramSpec, labels: Labels, value: number): void {
    const { name, help, bounds = DURATION_BOUNDS } = histogram
    const f = this.family(name, help, 'histogram', bounds)
    const b = f.bounds ?? bounds
    const k = seriesKey(labels)
    let s = f.series.get(k) as HistogramSeries | undefined
    if (!s) {
      s = { labels: { ...labels }, buckets: b.map(() => 0), sum: 0, count: 0 }
      f.series.set(k, s)
    }
    for (let i = 0; i < b.length; i++)
      if (value <= (b[i] as number)) s.buckets[i] = (s.buckets[i] ?? 0) + 1
    s.sum += value
    s.count += 1
  }
}
