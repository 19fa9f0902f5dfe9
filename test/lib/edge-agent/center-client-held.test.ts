/**
 * The center client's held poll against a small real HTTP server: it sends `Prefer: wait=N` with
 * `If-None-Match`, reads the hold granted from `Preference-Applied` (undefined from a center that
 * does not hold), waits past its usual timeout for a held answer, and notes a 429's or 503's
 * Retry-After before rejecting (reports too).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createCenterClient } from '../../../lib/edge-agent/center-client.ts'
import { RemoteError } from '../../../lib/remote/remote-error.ts'

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const c of closers.splice(0)) await c()
})

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  closers.push(() => new Promise((r) => server.close(() => r())))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const desired = {
  kind: 'DesiredState',
  mailbox: 'mb',
  version: 5,
  full: true,
  entries: [],
  bodies: {},
}

describe('holdDesired', () => {
  it('asks for the hold, waits past the usual timeout, and reads the hold granted', async () => {
    const seen: Record<string, string | undefined>[] = []
    const url = await serve((req, res) => {
      seen.push({ prefer: String(req.headers.prefer), inm: String(req.headers['if-none-match']) })
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json', 'preference-applied': 'wait=9' })
        res.end(JSON.stringify(desired))
      }, 1500)
    })
    const c = createCenterClient({
      baseUrl: url,
      mailbox: 'mb',
      token: async () => 't',
      timeoutMs: 1000,
    })
    const answer = await c.holdDesired?.(4, { waitSeconds: 9 })
    expect(answer).toMatchObject({ kind: 'desired', heldSeconds: 9 })
    expect(seen).toEqual([{ prefer: 'wait=9', inm: '"4"' }])
  })

  it('says undefined for a center that does not hold', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(304, { etag: '"4"' })
      res.end()
    })
    const c = createCenterClient({ baseUrl: url, mailbox: 'mb', token: async () => 't' })
    expect(await c.holdDesired?.(4, { waitSeconds: 30 })).toEqual({
      kind: 'unchanged',
      heldSeconds: undefined,
    })
  })

  it('notes the Retry-After of a 429 or 503 before it rejects', async () => {
    const status = [429, 503]
    const url = await serve((_req, res) => {
      res.writeHead(status.shift() ?? 500, {
        'retry-after': '12',
        'content-type': 'application/json',
      })
      res.end(JSON.stringify({ kind: 'Status', message: 'busy' }))
    })
    const noted: number[] = []
    const c = createCenterClient({
      baseUrl: url,
      mailbox: 'mb',
      token: async () => 't',
      onRetryAfter: (ms) => noted.push(ms),
    })
    await expect(c.holdDesired?.(4, { waitSeconds: 30 })).rejects.toBeInstanceOf(RemoteError)
    await expect(c.postReport({ kind: 'Report' } as never)).rejects.toBeInstanceOf(RemoteError)
    await expect(c.getDesired(4)).rejects.toBeInstanceOf(RemoteError)
    expect(noted).toEqual([12_000, 12_000])
  })
})
