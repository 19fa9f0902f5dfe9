/**
 * The idle fleet's run against a center slower than the agents' period: an agent never has two
 * requests in flight (the server counts them per mailbox), what fell due meanwhile is counted as
 * not sent, and every request sent is answered and counted.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { runIdleFleet } from '../../bench/idle-fleet-run.ts'

let server: Server | undefined
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())))

/** A center answering every request after `delayMs`: 304 to a poll, 200 to a report. */
async function slowCenter(delayMs: number) {
  const inFlight = new Map<string, number>()
  let most = 0
  let served = 0
  server = createServer((req, res) => {
    const mailbox = (req.url ?? '').split('/mailboxes/')[1]?.split('/')[0] ?? ''
    const now = (inFlight.get(mailbox) ?? 0) + 1
    inFlight.set(mailbox, now)
    most = Math.max(most, now)
    req.resume()
    setTimeout(() => {
      inFlight.set(mailbox, (inFlight.get(mailbox) ?? 1) - 1)
      served++
      const poll = req.method === 'GET'
      res.writeHead(poll ? 304 : 200, poll ? {} : { 'content-type': 'application/json' })
      res.end(poll ? undefined : '{}')
    }, delayMs)
  })
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', () => r()))
  const { port } = server.address() as AddressInfo
  return { baseUrl: `http://127.0.0.1:${port}`, most: () => most, served: () => served }
}

const targets = ['a', 'b'].map((mailbox) => ({ mailbox, token: 't', etag: '"1"' }))

/** Two agents against a center answering after `delayMs`. */
async function fleetAgainst(
  delayMs: number,
  timing: { intervalMs: number; durationMs: number; heartbeatMs?: number }
) {
  const center = await slowCenter(delayMs)
  return { center, r: await runIdleFleet({ baseUrl: center.baseUrl, targets, ...timing }) }
}

describe('idle fleet run', () => {
  it('keeps one request in flight per agent and counts what fell due meanwhile', async () => {
    const { center, r } = await fleetAgainst(250, {
      intervalMs: 100,
      durationMs: 600,
      heartbeatMs: 100,
    })
    expect(center.most()).toBe(1)
    // 12 polls and 12 heartbeats fell due (each agent every 100 ms for 600 ms).
    expect(r.polls + r.skipped).toBe(12)
    expect(r.heartbeats.sent + r.heartbeats.skipped).toBe(12)
    expect(r.skipped + r.heartbeats.skipped).toBeGreaterThan(0)
    expect(r.notModified).toBe(r.polls)
    expect([r.failed, r.heartbeats.failed]).toEqual([0, 0])
    expect(center.served()).toBe(r.polls + r.heartbeats.sent)
  })

  it('skips nothing when the center answers within the period (a second here)', async () => {
    const { r } = await fleetAgainst(0, { intervalMs: 1000, durationMs: 2000 })
    expect([r.polls, r.skipped, r.failed]).toEqual([4, 0, 0])
    expect(r.heartbeats.sent).toBe(0)
  })
})
