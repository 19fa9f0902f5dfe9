import { createServer } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import {
  type Check,
  type HealthServer,
  startHealthServer,
} from '../../../lib/metrics/health-server.ts'
import { PROMETHEUS_CONTENT_TYPE, renderPrometheus } from '../../../lib/metrics/prometheus-text.ts'
import { MetricsRegistry } from '../../../lib/metrics/registry.ts'
import { parseExposition } from '../../helpers/exposition.ts'

const sample = (text: string, name: string, labels?: Record<string, string>) =>
  parseExposition(text).value(name, labels)

const servers: HealthServer[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

async function serve(o: { live?: () => Check; ready?: () => Check; metrics?: () => string }) {
  const s = await startHealthServer({
    port: 0,
    host: '127.0.0.1',
    live: o.live ?? (() => ({ ok: true })),
    ready: o.ready ?? (() => ({ ok: true })),
    metrics: o.metrics ?? (() => ''),
  })
  servers.push(s)
  return (path: string, init?: RequestInit) => fetch(`http://127.0.0.1:${s.port}${path}`, init)
}

describe('startHealthServer over real HTTP', () => {
  it('answers the checks: 200 ok, or 503 with the reason on one line', async () => {
    let live: Check = { ok: true }
    const get = await serve({
      live: () => live,
      ready: () => ({ ok: false, reason: 'no poll has finished yet' }),
    })
    const ok = await get('/healthz')
    expect([ok.status, await ok.text()]).toEqual([200, 'ok\n'])
    expect(ok.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    const notReady = await get('/readyz?verbose')
    expect([notReady.status, await notReady.text()]).toEqual([503, 'no poll has finished yet\n'])
    live = { ok: false, reason: 'stuck\nfor 10 s' }
    const dead = await get('/healthz')
    expect([dead.status, await dead.text()]).toEqual([503, 'stuck for 10 s\n'])
  })

  it('serves the registry as Prometheus text, rendered at each scrape', async () => {
    const registry = new MetricsRegistry()
    const get = await serve({ metrics: () => renderPrometheus(registry.families.values()) })
    registry.inc('demo_total', 'A demo counter.', { code: '200' })
    const first = await get('/metrics')
    expect(first.status).toBe(200)
    expect(first.headers.get('content-type')).toBe(PROMETHEUS_CONTENT_TYPE)
    expect(sample(await first.text(), 'demo_total', { code: '200' })).toBe(1)
    registry.inc('demo_total', 'A demo counter.', { code: '200' }, 2)
    expect(sample(await (await get('/metrics')).text(), 'demo_total', { code: '200' })).toBe(3)
  })

  it('answers HEAD without a body, 405 other methods, 404 other paths', async () => {
    const get = await serve({ metrics: () => 'x 1\n' })
    const head = await get('/metrics', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe('4')
    expect(await head.text()).toBe('')
    const post = await get('/healthz', { method: 'POST', body: 'x'.repeat(100_000) })
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET, HEAD')
    for (const path of ['/', '/healthz/', '/metrics.json', '/HEALTHZ'])
      expect((await get(path)).status, path).toBe(404)
  })

  it('answers 503 for a check that throws and 500 for a page that cannot render', async () => {
    const get = await serve({
      ready: () => {
        throw new Error('boom')
      },
      metrics: () => {
        throw new Error('broken family')
      },
    })
    const ready = await get('/readyz')
    expect([ready.status, await ready.text()]).toEqual([503, 'check failed: boom\n'])
    const page = await get('/metrics')
    expect(page.status).toBe(500)
    expect(await page.text()).toContain('broken family')
    expect((await get('/healthz')).status).toBe(200)
  })

  it('rejects when the port is taken', async () => {
    const blocker = createServer()
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()))
    const port = (blocker.address() as { port: number }).port
    try {
      await expect(
        startHealthServer({
          port,
          host: '127.0.0.1',
          live: () => ({ ok: true }),
          ready: () => ({ ok: true }),
          metrics: () => '',
        })
      ).rejects.toThrow(/EADDRINUSE/)
    } finally {
      await new Promise((r) => blocker.close(r))
    }
  })
})
