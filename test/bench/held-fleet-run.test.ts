/**
 * The held fleet's run against a small center that holds polls: every agent keeps one hold open,
 * asks with its current version, opens the next hold when one ends (304) or is answered (200,
 * recorded, its new ETag held), beats beside its hold, and `stop()` ends every lane.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { startHeldFleet } from '../../bench/held-fleet-run.ts'

let server: Server | undefined
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())))

/** A center holding each poll until `ring()` (200, a new ETag) or `end()` (304). */
async function holdingCenter() {
  const held = new Set<{ res: ServerResponse; req: IncomingMessage }>()
  const asked: string[] = []
  let beats = 0
  let version = 1
  const waiters: (() => void)[] = []
  const check = () => {
    for (const w of waiters.splice(0)) w()
  }
  server = createServer((req, res) => {
    req.resume()
    if (req.method === 'POST') {
      beats++
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      check()
      return
    }
    asked.push(`${req.headers.prefer} ${req.headers['if-none-match']}`)
    held.add({ req, res })
    check()
  })
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', () => r()))
  const { port } = server.address() as AddressInfo
  const answer = (status: number) => {
    for (const h of held) {
      const headers: Record<string, string> = { 'preference-applied': 'wait=1' }
      if (status === 200) headers.etag = `"${version}"`
      h.res.writeHead(status, headers).end(status === 200 ? '{}' : undefined)
    }
    held.clear()
  }
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    asked,
    beats: () => beats,
    holding: () => held.size,
    ring() {
      version++
      answer(200)
    },
    end: () => answer(304),
    until: async (ok: () => boolean) => {
      while (!ok()) await new Promise<void>((r) => waiters.push(r))
    },
  }
}

const targets = () => ['a', 'b'].map((mailbox) => ({ mailbox, token: 't', etag: '"1"' }))

describe('held fleet run', () => {
  it('keeps a hold open per agent, with its version, and records answers', async () => {
    const center = await holdingCenter()
    const fleet = startHeldFleet({
      baseUrl: center.baseUrl,
      targets: targets(),
      holdSeconds: 30,
      intervalMs: 10,
      heartbeatMs: 0,
      openSpreadMs: 0,
    })
    await center.until(() => center.holding() === 2)
    expect(fleet.held()).toBe(2)
    center.end()
    await center.until(() => center.holding() === 2 && center.asked.length === 4)
    center.ring()
    await center.until(() => center.holding() === 2 && center.asked.length === 6)
    const r = await fleet.stop()
    expect(center.asked.slice(0, 4)).toEqual(Array(4).fill('wait=30 "1"'))
    // after the answer each agent asks with the version it was given
    expect(center.asked.slice(4)).toEqual(Array(2).fill('wait=30 "2"'))
    expect(r.ended).toBe(2)
    expect(r.answered).toBe(2)
    expect(r.answers.map((a) => a.length)).toEqual([1, 1])
    expect(r.holdStarts).toHaveLength(6)
    expect(r.notHeld).toBe(0)
    // the holds stop() cut are no failures
    expect(r.failed).toBe(0)
  })

  it('beats beside the open hold', async () => {
    const center = await holdingCenter()
    const fleet = startHeldFleet({
      baseUrl: center.baseUrl,
      targets: targets(),
      holdSeconds: 30,
      intervalMs: 10,
      heartbeatMs: 20,
      openSpreadMs: 0,
    })
    await center.until(() => center.holding() === 2 && center.beats() >= 4)
    const r = await fleet.stop()
    expect(r.beatStarts.length).toBeGreaterThanOrEqual(4)
    expect(r.beatsFailed).toBe(0)
    expect(r.holdStarts).toHaveLength(2)
  })
})
