/**
 * Small readers for the untyped JSON of objects being printed: dig a dotted path, read it as a
 * string, an integer, a list or a map (with the zero value kube's typed structs would show), and
 * the formatters kube's printers share — label maps (`a=b,c=d`), label selectors (`app=x,tier in
 * (a,b)`, `<none>` when empty) and the CONTAINERS/IMAGES pair of a pod template.
 */

export type JsonRecord = Record<string, unknown>

export function isRecord(v: unknown): v is JsonRecord {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** The value at a dotted path (`status.readyReplicas`), or undefined when any step is missing. */
export function dig(v: unknown, path: string): unknown {
  let cur = v
  for (const key of path.split('.')) {
    if (!isRecord(cur)) return undefined
    cur = cur[key]
  }
  return cur
}

export function text(v: unknown, path: string): string | undefined {
  const s = dig(v, path)
  return typeof s === 'string' ? s : undefined
}

/** A string field, '' when absent (as a Go struct's zero value prints). */
export function textOr(v: unknown, path: string, fallback = ''): string {
  return text(v, path) ?? fallback
}

export function optInt(v: unknown, path: string): number | undefined {
  const n = dig(v, path)
  return typeof n === 'number' && Number.isFinite(n) ? Math.trunc(n) : undefined
}

/** An integer field, 0 when absent. */
export function int(v: unknown, path: string): number {
  return optInt(v, path) ?? 0
}

export function items(v: unknown, path: string): unknown[] {
  const a = dig(v, path)
  return Array.isArray(a) ? a : []
}

export function record(v: unknown, path: string): JsonRecord {
  const r = dig(v, path)
  return isRecord(r) ? r : {}
}

/** Number of keys of a map field (ConfigMap data, Secret data), 0 when absent. */
export function keyCount(v: unknown, path: string): number {
  return Object.keys(record(v, path)).length
}

/** `a=b,c=d` sorted by key, `<none>` for an empty map (kube's labels.FormatLabels). */
export function formatLabels(map: unknown): string {
  if (!isRecord(map)) return '<none>'
  const pairs = Object.keys(map)
    .sort()
    .map((k) => `${k}=${String(map[k])}`)
  return pairs.length === 0 ? '<none>' : pairs.join(',')
}

function requirement(expr: JsonRecord): { key: string; text: string } | undefined {
  const key = typeof expr.key === 'string' ? expr.key : undefined
  if (!key) return undefined
  const values = (Array.isArray(expr.values) ? expr.values : []).map(String).sort()
  switch (expr.operator) {
    case 'In':
      return { key, text: `${key} in (${values.join(',')})` }
    case 'NotIn':
      return { key, text: `${key} notin (${values.join(',')})` }
    case 'Exists':
      return { key, text: key }
    case 'DoesNotExist':
      return { key, text: `!${key}` }
    default:
      return undefined
  }
}

/** A LabelSelector as a selector string (`app=x,tier in (a,b)`), '' when it selects everything. */
export function selectorString(sel: unknown): string {
  if (!isRecord(sel)) return ''
  const reqs: { key: string; text: string }[] = []
  const labels = isRecord(sel.matchLabels) ? sel.matchLabels : {}
  for (const [key, value] of Object.entries(labels)) reqs.push({ key, text: `${key}=${value}` })
  for (const e of Array.isArray(sel.matchExpressions) ? sel.matchExpressions : []) {
    const r = isRecord(e) ? requirement(e) : undefined
    if (r) reqs.push(r)
  }
  reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  return reqs.map((r) => r.text).join(',')
}

/** kube's FormatLabelSelector: the selector string, or `<none>`. */
export function formatLabelSelector(sel: unknown): string {
  return selectorString(sel) || '<none>'
}

/** The CONTAINERS and IMAGES cells of a container list: names and images, comma-joined. */
export function containerCells(containers: unknown[]): [string, string] {
  const names: string[] = []
  const images: string[] = []
  for (const c of containers) {
    names.push(textOr(c, 'name'))
    images.push(textOr(c, 'image'))
  }
  return [names.join(','), images.join(',')]
}
