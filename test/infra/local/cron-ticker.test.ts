import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { LOCAL_CRON, startCronTicker } from '../../../infra/local/cron-ticker.ts'
import { createLogger } from '../../../lib/log.ts'

describe('cron ticker', () => {
  it("calls wrangler's scheduled route with the cron every period until stopped, logging failures", async () => {
    const urls: string[] = []
    const server = createServer((req, res) => {
      urls.push(req.url ?? '')
      res.statusCode = urls.length === 1 ? 500 : 200
      res.end()
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
    const hubUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const lines: string[] = []
    const log = createLogger({ sink: (l) => lines.push(l) })
    const ticker = startCronTicker({ hubUrl, periodMs: 20, log })
    while (urls.length < 3) await new Promise((r) => setTimeout(r, 10))
    await ticker.stop()
    const seen = urls.length
    await new Promise((r) => setTimeout(r, 100))
    await new Promise<void>((r) => server.close(() => r()))
    expect(urls.length).toBe(seen)
    expect(urls[0]).toBe(`/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(LOCAL_CRON)}`)
    expect(lines.some((l) => JSON.parse(l).msg === 'scheduled run answered an error')).toBe(true)
  })
})
