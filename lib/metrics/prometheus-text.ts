/**
 * Renders metric families in the Prometheus text exposition format 0.0.4: `# HELP` and `# TYPE`
 * lines, label values escaped (backslash, double quote, newline), histogram buckets cumulative
 * with `le` and a final `+Inf`, then `_sum` and `_count`. Served with PROMETHEUS_CONTENT_TYPE.
 */
import type { HistogramSeries, Labels, MetricFamily, Series } from './registry.ts'

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

const escapeLabel = (v: string) =>
  v.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n')
const escapeHelp = (v: string) => v.replaceAll('\\', '\\\\').replaceAll('\n', '\\n')

function labelText(labels: Labels, extra?: [string, string]): string {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`)
  if (extra) parts.push(`${extra[0]}="${escapeLabel(extra[1])}"`)
  return parts.length ? `{${parts.join(',')}}` : ''
}

const num = (n: number) =>
  Number.isFinite(n) ? String(n) : Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf'

export function renderPrometheus(families: Iterable<MetricFamily>): string {
  const out: string[] = []
  const sorted = [...families].sort((a, b) => (a.name < b.name ? -1 : 1))
  for (const f of sorted) {
    out.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.type}`)
    for (const s of f.series.values()) {
      if (f.type !== 'histogram') {
        const x = s as Series
        out.push(`${f.name}${labelText(x.labels)} ${num(x.value)}`)
        continue
      }
      const h = s as HistogramSeries
      const bounds = f.bounds ?? []
      bounds.forEach((b, i) => {
        out.push(`${f.name}_bucket${labelText(h.labels, ['le', num(b)])} ${h.buckets[i] ?? 0}`)
      })
      out.push(`${f.name}_bucket${labelText(h.labels, ['le', '+Inf'])} ${h.count}`)
      out.push(`${f.name}_sum${labelText(h.labels)} ${num(h.sum)}`)
      out.push(`${f.name}_count${labelText(h.labels)} ${h.count}`)
    }
  }
  return `${out.join('\n')}\n`
}
