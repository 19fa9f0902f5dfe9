/**
 * delta-codec: a registry's counters and histograms become flat attribute deltas and come back as
 * the same families; the deltas of two registries, summed as the store sums them, decode to what
 * one registry holding every observation renders; attributes of unknown families, of the wrong
 * shape or of a bucket bound the catalog lacks are skipped; gauges are never flushed.
 */
import { describe, expect, it } from 'vitest'
import { decodeTotals, encodeDeltas } from '../../../lib/metrics/delta-codec.ts'
import { HTTP_DURATION, HTTP_REQUESTS, STORE_REQUESTS } from '../../../lib/metrics/hub-catalog.ts'
import { renderPrometheus } from '../../../lib/metrics/prometheus-text.ts'
import { MetricsRegistry } from '../../../lib/metrics/registry.ts'

function record(r: MetricsRegistry, verb: string, seconds: number[]) {
  for (const s of seconds) {
    r.inc(HTTP_REQUESTS.name, HTTP_REQUESTS.help, {
      verb,
      route: 'resource',
      resource: 'core/pods',
      code: '200',
    })
    r.observe(
      { name: HTTP_DURATION.name, help: HTTP_DURATION.help },
      { verb, route: 'resource' },
      s
    )
  }
}

const sum = (a: Map<string, number>, b: Map<string, number>) => {
  const out = new Map(a)
  for (const [k, v] of b) out.set(k, (out.get(k) ?? 0) + v)
  return out
}

describe('encodeDeltas / decodeTotals', () => {
  it('round-trips counters and histograms in the catalog label order', () => {
    const r = new MetricsRegistry()
    record(r, 'get', [0.003, 0.2, 7])
    const deltas = encodeDeltas(r)
    expect(deltas.get('rq|get|resource|core/pods|200')).toBe(3)
    expect(deltas.get('rd|get|resource|le:0.005')).toBe(1)
    expect(deltas.get('rd|get|resource|le:0.25')).toBe(2)
    expect(deltas.get('rd|get|resource|le:10')).toBe(3)
    expect(deltas.get('rd|get|resource|count')).toBe(3)
    expect(deltas.get('rd|get|resource|sum')).toBeCloseTo(7.203)
    expect(renderPrometheus(decodeTotals(deltas))).toBe(renderPrometheus(r.families.values()))
  })

  it('sums two isolates into what one registry with every observation renders', () => {
    const a = new MetricsRegistry()
    const b = new MetricsRegistry()
    const both = new MetricsRegistry()
    record(a, 'list', [0.01, 0.04])
    record(b, 'list', [3])
    record(b, 'watch', [0.5])
    record(both, 'list', [0.01, 0.04, 3])
    record(both, 'watch', [0.5])
    const totals = sum(encodeDeltas(a), encodeDeltas(b))
    const text = renderPrometheus(decodeTotals(totals))
    expect(text).toBe(renderPrometheus(both.families.values()))
    expect(text).toContain(
      'edgeplane_http_requests_total{verb="list",route="resource",resource="core/pods",code="200"} 3'
    )
  })

  it('skips unknown families, wrong shapes, unknown bounds and gauges; cleans "|"', () => {
    const r = new MetricsRegistry()
    r.inc(STORE_REQUESTS.name, STORE_REQUESTS.help, { command: 'Get|Item', result: 'ok' })
    r.set('edgeplane_edges_by_last_seen', 'x', { age: 'never' }, 4)
    r.inc('not_in_catalog_total', 'x', {})
    const deltas = encodeDeltas(r)
    expect([...deltas.keys()]).toEqual(['sr|Get_Item|ok'])
    deltas.set('zz|a|b', 1)
    deltas.set('sr|too|many|labels', 1)
    deltas.set('rd|get|resource|le:0.3', 5)
    deltas.set('rd|get|resource|avg', 5)
    const families = decodeTotals(deltas)
    expect(families.map((f) => f.name)).toEqual([STORE_REQUESTS.name, HTTP_DURATION.name])
    expect(families[1]?.series.size).toBe(0)
  })
})
