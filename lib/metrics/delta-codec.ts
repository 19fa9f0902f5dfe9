/**
 * Turns a registry of per-isolate deltas into flat `attribute -> number` entries for the store,
 * and summed stored entries back into metric families for rendering. An attribute is
 * `<family id>|<label values in the catalog's order>` plus, for a histogram, `|le:<bound>`,
 * `|sum` or `|count` (hub-catalog.ts). Buckets are cumulative, as the registry keeps them, so sums
 * over isolates stay cumulative. A label value never holds `|` (replaced by `_`) and is cut at
 * 128 characters. Stored attributes of unknown families, of the wrong shape or of a bucket bound
 * the catalog no longer has are skipped, so a changed catalog never breaks the exposition.
 */
import { FAMILY_BY_ID, FAMILY_BY_NAME, type FamilySpec } from './hub-catalog.ts'
import type { HistogramSeries, Labels, MetricFamily, MetricsRegistry, Series } from './registry.ts'

const SEP = '|'

const clean = (v: string | undefined) => (v ?? '').replaceAll(SEP, '_').slice(0, 128)

function seriesAttr(spec: FamilySpec, labels: Labels): string {
  return [spec.id, ...spec.labels.map((l) => clean(labels[l]))].join(SEP)
}

const add = (out: Map<string, number>, key: string, v: number) => {
  if (v !== 0) out.set(key, (out.get(key) ?? 0) + v)
}

/** The flushable series of `registry` as attribute deltas, added into `out`. */
export function encodeDeltas(
  registry: MetricsRegistry,
  out: Map<string, number> = new Map()
): Map<string, number> {
  for (const family of registry.families.values()) {
    const spec = FAMILY_BY_NAME.get(family.name)
    if (!spec || spec.scrape || spec.type === 'gauge') continue
    for (const series of family.series.values()) {
      const base = seriesAttr(spec, series.labels)
      if (spec.type === 'counter') {
        add(out, base, (series as Series).value)
        continue
      }
      const h = series as HistogramSeries
      const bounds = family.bounds ?? []
      bounds.forEach((b, i) => {
        add(out, `${base}${SEP}le:${b}`, h.buckets[i] ?? 0)
      })
      add(out, `${base}${SEP}sum`, h.sum)
      add(out, `${base}${SEP}count`, h.count)
    }
  }
  return out
}

type Parsed = { spec: FamilySpec; labels: Labels; key: string; part?: string }

function parseAttr(attr: string): Parsed | undefined {
  const parts = attr.split(SEP)
  const spec = FAMILY_BY_ID.get(parts[0] ?? '')
  if (!spec || spec.scrape) return undefined
  const width = 1 + spec.labels.length + (spec.type === 'histogram' ? 1 : 0)
  if (parts.length !== width) return undefined
  const labels: Labels = {}
  spec.labels.forEach((name, i) => {
    labels[name] = parts[i + 1] as string
  })
  const key = parts.slice(0, 1 + spec.labels.length).join(SEP)
  return spec.type === 'histogram'
    ? { spec, labels, key, part: parts.at(-1) }
    : { spec, labels, key }
}

function familyOf(out: Map<string, MetricFamily>, spec: FamilySpec): MetricFamily {
  let f = out.get(spec.name)
  if (!f) {
    f = { name: spec.name, help: spec.help, type: spec.type, series: new Map() }
    if (spec.bounds) f.bounds = spec.bounds
    out.set(spec.name, f)
  }
  return f
}

function addHistogramPart(f: MetricFamily, p: Parsed, value: number): void {
  const bounds = f.bounds ?? []
  let h = f.series.get(p.key) as HistogramSeries | undefined
  const part = p.part ?? ''
  const bucket = part.startsWith('le:') ? bounds.indexOf(Number(part.slice(3))) : -2
  if (bucket === -1 || (bucket === -2 && part !== 'sum' && part !== 'count')) return
  if (!h) {
    h = { labels: p.labels, buckets: bounds.map(() => 0), sum: 0, count: 0 }
    f.series.set(p.key, h)
  }
  if (bucket >= 0) h.buckets[bucket] = (h.buckets[bucket] ?? 0) + value
  else if (part === 'sum') h.sum += value
  else h.count += value
}

/** Metric families from summed stored attributes (see the header for what is skipped). */
export function decodeTotals(totals: ReadonlyMap<string, number>): MetricFamily[] {
  const out = new Map<string, MetricFamily>()
  for (const [attr, value] of totals) {
    const p = parseAttr(attr)
    if (!p) continue
    const f = familyOf(out, p.spec)
    if (p.spec.type === 'histogram') {
      addHistogramPart(f, p, value)
      continue
    }
    const s = f.series.get(p.key) as Series | undefined
    if (s) s.value += value
    else f.series.set(p.key, { labels: p.labels, value })
  }
  return [...out.values()]
}
