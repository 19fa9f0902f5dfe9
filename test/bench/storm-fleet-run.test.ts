/**
 * The storm fleet's run (bench/storm-fleet-run.ts) against a small center that stops listening
 * and comes back on the same port: the fleet warms up (every agent beats), meets refused
 * connects while the center is down, and every agent polls and beats again after the resume;
 * recovery is counted only for passes after the stop.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { runStormFleet } from '../../bench/storm-fleet-run.ts'

let server: Server | undefined
afterEach(() => new Promise<void>((r) => (server?.listening ? server.close(() => r()) : r())))

describe('runStormFleet', () => {
  it('every agent comes back after the center was stopped and resumed', async () => {
    const beats = new Set<string>()
    server = createServer((req, res) => {
      req.resume()
      const mailbox = (req.url ?? '').split('/mailboxes/')[1]?.split('/')[0] ?? ''
      if (req.method === 'POST') beats.add(mailbox)
      res.writeHead(req.method === 'GET' ? 304 : 200)
      res.end(req.method === 'GET' ? undefined : '{}')
    })
    const s = server
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()))
    const port = (s.address() as AddressInfo).port
    const targets = ['a', 'b', 'c'].map((mailbox) => ({ mailbox, token: 't', etag: '"1"' }))
    let stop: (at: number) => void = () => undefined
    const stopped = new Promise<number>((r) => {
      stop = r
    })
    let onWarm: (n: number) => void = () => undefined
    const warmed = new Promise<number>((r) => {
      onWarm = r
    })
    const run = runStormFleet(
      {
        baseUrl: `http://127.0.0.1:${port}`,
        targets,
        intervalMs: 40,
        heartbeatMs: 150,
        capMs: 20_000,
        warmCapMs: 20_000,
      },
      { stopped, onWarm: (_, n) => onWarm(n), abort: new AbortController().signal }
    )
    expect(await warmed).toBe(3)
    await new Promise<void>((r) => {
      s.close(() => r())
      s.closeAllConnections()
    })
    const stopAt = Date.now()
    stop(stopAt)
    await new Promise((r) => setTimeout(r, 300))
    beats.clear()
    await new Promise<void>((r) => s.listen(port, '127.0.0.1', () => r()))
    const raw = await run
    expect(raw.warmed).toBe(3)
    expect(raw.recoveredAt.every((t) => t !== null && t >= stopAt)).toBe(true)
    const total = (k: 'refused' | 'polls' | 's3xx') => raw.seconds.reduce((n, r) => n + r[k], 0)
    expect(total('refused')).toBeGreaterThan(0)
    expect(total('s3xx')).toBeGreaterThan(0)
    // the outage was longer than the heartbeat period: each agent beat again on its way back
    expect([...beats].sort()).toEqual(['a', 'b', 'c'])
  }, 30_000)
})
