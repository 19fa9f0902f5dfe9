/**
 * dynalite, the local DynamoDB, served in-process on 127.0.0.1 with its LevelDB files in the
 * data folder, so objects survive restarts. Table state changes are instant (no CREATING
 * delay), and idle connections are kept open. The port is picked by the OS unless given; `close()`
 * stops the HTTP server, lets requests in flight answer, ends its connections and closes the
 * database (so the LevelDB lock is released).
 */

import type { Server } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'

type DynaliteOptions = {
  path?: string
  createTableMs?: number
  deleteTableMs?: number
  updateTableMs?: number
}

const requireCjs = createRequire(import.meta.url)
const dynalite = requireCjs('dynalite') as (options: DynaliteOptions) => Server

export type DynaliteServer = {
  endpoint: string
  port: number
  close(): Promise<void>
}

export type DynaliteServerOptions = {
  /** LevelDB folder; in memory when absent. */
  path?: string
  host?: string
  /** 0 or absent: a free port. */
  port?: number
}

export async function startDynalite(opts: DynaliteServerOptions): Promise<DynaliteServer> {
  const host = opts.host ?? '127.0.0.1'
  const server = dynalite({
    ...(opts.path ? { path: opts.path } : {}),
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
  })
  // Idle connections stay open until close(), which ends them. With Node's default of 5 s the
  // server may close a socket just as a client sends on it: a client whose event loop was busy
  // for longer (the fuzz's hub in a worker thread, busy with a 1.6 MB patch beside e2e stacks)
  // has not yet seen the close, reuses the socket and gets a reset, which the hub answers 503.
  server.keepAliveTimeout = 0
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  let closing: Promise<void> | undefined
  return {
    endpoint: `http://${host}:${port}`,
    port,
    close: () => {
      closing ??= closeGracefully(server)
      return closing
    },
  }
}

/** How long close() lets requests in flight finish before it ends their connections. */
const CLOSE_GRACE_MS = 5_000
const IDLE_SWEEP_MS = 20

/**
 * Stops accepting, ends idle connections as they become idle, and lets requests in flight answer.
 * Ending a connection mid-request does not stop dynalite's action: its next database step would
 * run after dynalite closed the database behind the HTTP server, and dynalite throws that error
 * (uncaught) instead of answering it. Only past the grace period are busy connections ended.
 */
function closeGracefully(server: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS)
    const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS)
    server.close((err) => {
      clearInterval(sweep)
      clearTimeout(force)
      if (err) reject(err)
      else resolve()
    })
    server.closeIdleConnections()
  })
}
