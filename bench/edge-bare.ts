/**
 * The baseline of the idle throughput run: a bare hono app answering 304 (with an ETag, no body,
 * no auth, no store) on the same path as the real desired endpoint, served by @hono/node-server on
 * 127.0.0.1 in this process — the HTTP stack the hub runs on (functions/node-server.ts), so the
 * ratio real/bare shows what auth, routing and the manifest read cost on top of HTTP itself.
 */
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { EDGE_API_PREFIX } from '../lib/edge/protocol.ts'

export type BareServer = { url: string; close(): Promise<void> }

export async function startBareServer(): Promise<BareServer> {
  const app = new Hono()
  app.get(`${EDGE_API_PREFIX}/mailboxes/:mailbox/desired`, () => {
    return new Response(null, {
      status: 304,
      headers: { ETag: '"1"', 'Cache-Control': 'no-cache' },
    })
  })
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
