/**
 * The fuzz report: a table of answers by category and status code (status 0: no answer), the
 * tolerated ResourceVersionTooLarge answers, and every violation with the request that caused it
 * (method, path, content type, token, body prefix) and the answer's detail, grouped by kind.
 */
import type { FuzzResult } from './runner.ts'
import type { FuzzRequest, Violation } from './types.ts'

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length)
}

export function countsTable(r: FuzzResult): string {
  const statuses = [...new Set([...r.counts.values()].flatMap((m) => [...m.keys()]))].sort(
    (a, b) => a - b
  )
  const header = ['category', ...statuses.map(String), 'total', 'seconds']
  const rows: string[][] = []
  const totals = new Map<number, number>()
  for (const [cat, m] of [...r.counts].sort()) {
    let total = 0
    const row = [cat]
    for (const s of statuses) {
      const n = m.get(s) ?? 0
      total += n
      totals.set(s, (totals.get(s) ?? 0) + n)
      row.push(n ? String(n) : '.')
    }
    rows.push([...row, String(total), ((r.timeMs.get(cat) ?? 0) / 1000).toFixed(1)])
  }
  const seconds = [...r.timeMs.values()].reduce((x, y) => x + y, 0) / 1000
  rows.push([
    'all',
    ...statuses.map((s) => String(totals.get(s) ?? 0)),
    String(r.sent),
    seconds.toFixed(1),
  ])
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length))
  )
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i] ?? 0)).join('  ')
  return [line(header), ...rows.map(line)].join('\n')
}

function printable(s: string): string {
  return JSON.stringify(s).slice(1, -1)
}

export function describeRequest(q: FuzzRequest): string {
  if (q.raw !== undefined) return `raw: ${printable(q.raw.slice(0, 200))}`
  const body =
    q.body === undefined
      ? ''
      : typeof q.body === 'string'
        ? q.body
        : Buffer.from(q.body).toString('latin1')
  const parts = [
    `${q.method} ${q.path.length > 200 ? `${q.path.slice(0, 200)}… (${q.path.length} chars)` : q.path}`,
  ]
  parts.push(`token ${q.token}`)
  if (q.contentType !== undefined) parts.push(`content-type ${q.contentType}`)
  if (body) parts.push(`body[${body.length}] ${printable(body.slice(0, 160))}`)
  return parts.join(' | ')
}

export function violationLines(vs: Violation[]): string[] {
  const byKind = new Map<string, Violation[]>()
  for (const v of vs) byKind.set(v.kind, [...(byKind.get(v.kind) ?? []), v])
  const out: string[] = []
  for (const [kind, list] of byKind) {
    out.push(`${kind} (${list.length}):`)
    for (const v of list)
      out.push(
        `  #${v.index} [${v.request.category}] ${v.request.label} → ${v.status}\n    request: ${describeRequest(v.request)}\n    ${v.detail.slice(0, 400)}`
      )
  }
  return out
}

export function renderReport(r: FuzzResult, seed: number): string {
  const lines = [
    `fuzz: seed ${seed}, ${r.sent} requests sent (${r.skipped} skipped for want of a token), ${(r.durationMs / 1000).toFixed(1)} s`,
    '',
    countsTable(r),
    '',
    `tolerated: ${r.rvTooLarge} × 504 Timeout/ResourceVersionTooLarge for reads ahead of the store (kube's answer)`,
    `health checks: ${r.healthChecks}, hub restarts: ${r.restarts}`,
    `slowest answers: ${r.slowest.map((x) => `#${x.index} ${x.request.category} "${x.request.label}" ${x.status} in ${(x.ms / 1000).toFixed(1)} s`).join('; ')}`,
    `violations: ${r.violations.length}`,
  ]
  if (r.violations.length) lines.push('', ...violationLines(r.violations))
  return lines.join('\n')
}
