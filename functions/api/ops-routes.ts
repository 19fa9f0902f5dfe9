/**
 * The hub's operability routes (docs/ARCHITECTURE.md, "Metrics"):
 * - `/livez`, `/healthz`: the process answers; nothing else is checked.
 * - `/readyz`: the store answers a read within 2 s (lib/metrics/hub-ops.ts); 200 `ok` or 503 with
 *   kube's check listing (`[+]ping ok`, `[-]store failed: reason withheld`, `readyz check failed`),
 *   the listing also on success with `?verbose`. No authentication, as kube's.
 * - `/metrics`: Prometheus text of every isolate's flushed totals plus the edge gauges,
 *   edgeplane_build_info and process_start_time_seconds of the answering isolate (the one
 *   process_* reading a Worker can take: lib/metrics/process-families.ts); for admins and
 *   principals in a metrics-reader group, 403 for others (401 without a token, as everything).
 * - `countRequests`: the first middleware of every authenticated path: it sets the request's deps
 *   and parsed URL, counts the request and starts a background flush when one is due.
 * Without `deps.ops` (simulated edge clusters) /readyz checks nothing and /metrics is 404.
 */
import type { Context, MiddlewareHandler, Next } from 'hono'
import type { Principal } from '../../lib/auth/tokens.ts'
import { forbidden, notFound } from '../../lib/errors.ts'
import type { HubDeps } from '../../lib/hub/deps.ts'
import { buildInfoFamily } from '../../lib/metrics/build-info.ts'
import { decodeTotals } from '../../lib/metrics/delta-codec.ts'
import { edgeFamilies } from '../../lib/metrics/edge-last-seen.ts'
import { METRICS_READER_GROUPS } from '../../lib/metrics/hub-ops.ts'
import { processFamilies } from '../../lib/metrics/process-families.ts'
import { PROMETHEUS_CONTENT_TYPE, renderPrometheus } from '../../lib/metrics/prometheus-text.ts'
import type { MetricFamily } from '../../lib/metrics/registry.ts'
import { classifyRequest } from '../../lib/metrics/route-class.ts'
import { livenessOf } from '../../lib/summarize/liveness.ts'
import type { ApiEnv } from './api-env.ts'

const TEXT = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' }

type Check = { name: string; ok: boolean }

function verbose(c: Context): boolean {
  const v = c.req.query('verbose')
  return v !== undefined && v !== '0' && v.toLowerCase() !== 'false'
}

/** kube's healthz text: `ok`, or the check listing (always when one failed). */
function healthText(c: Context, what: string, checks: Check[]): Response {
  const ok = checks.every((x) => x.ok)
  if (ok && !verbose(c)) return new Response('ok', { headers: TEXT })
  const lines = checks.map((x) =>
    x.ok ? `[+]${x.name} ok` : `[-]${x.name} failed: reason withheld`
  )
  lines.push(`${what} check ${ok ? 'passed' : 'failed'}`)
  return new Response(`${lines.join('\n')}\n`, { status: ok ? 200 : 503, headers: TEXT })
}

export function handleLivez(c: Context, what: 'livez' | 'healthz'): Response {
  return healthText(c, what, [{ name: 'ping', ok: true }])
}

export async function handleReadyz(c: Context, deps: HubDeps): Promise<Response> {
  const checks: Check[] = [{ name: 'ping', ok: true }]
  if (deps.ops) checks.push({ name: 'store', ok: (await deps.ops.ready()).ok })
  return healthText(c, 'readyz', checks)
}

const ISOLATE_HELP = {
  process_start_time_seconds:
    'Start time of the Worker isolate that answered this scrape (its first request) since unix epoch in seconds; isolates come and go, and the counters here are the sums of all of them.',
}

function authorizeMetrics(p: Principal): void {
  if (p.kind === 'admin') return
  if (p.groups?.some((g) => METRICS_READER_GROUPS.includes(g))) return
  throw forbidden(
    `${p.kind} "${p.name}" cannot read /metrics: admins and the groups ${METRICS_READER_GROUPS.join(', ')} only`
  )
}

export async function handleMetrics(c: Context<ApiEnv>): Promise<Response> {
  authorizeMetrics(c.get('principal'))
  const deps = c.get('deps')
  const ops = deps.ops
  if (!ops) throw notFound('', { name: '/metrics' })
  const families: MetricFamily[] = decodeTotals(await ops.metrics.totals())
  families.push(
    buildInfoFamily(),
    ...processFamilies({ startTimeSeconds: ops.startedAtMs / 1000 }, ISOLATE_HELP)
  )
  try {
    const now = ops.metrics.now()
    families.push(...edgeFamilies(await ops.edges.get(deps, now), now, livenessOf(deps)))
  } catch (e) {
    deps.log.warn('metrics: reading the SyncTargets failed; edge gauges left out', { error: e })
  }
  return new Response(renderPrometheus(families), {
    headers: { 'Content-Type': PROMETHEUS_CONTENT_TYPE },
  })
}

/**
 * Sets `deps` and the parsed `url` for the request and, when it has ops, counts the request once
 * answered.
 */
export function countRequests(getDeps: (c: Context) => HubDeps): MiddlewareHandler<ApiEnv> {
  return async function countRequest(c: Context<ApiEnv>, next: Next) {
    const deps = getDeps(c)
    c.set('deps', deps)
    const url = new URL(c.req.url)
    c.set('url', url)
    const ops = deps.ops
    if (!ops) return next()
    const started = ops.metrics.now()
    try {
      await next()
    } finally {
      const labels = classifyRequest(c.req.method, url, c.req.header('content-type'))
      const seconds = Math.max(0, (ops.metrics.now() - started) / 1000)
      ops.metrics.request(labels, c.res?.status ?? 500, seconds)
      ops.metrics.maybeFlush(deps.background)
    }
  }
}
