/**
 * dynalite, the local DynamoDB, served in-process on 127.0.0.1 with its LevelDB files in the
 * data folder, so objects survive restarts. Table state changes are instant (no CREATING
 * delay). The port is picked by the OS unless given; `close()` stops the HTTP server and closes
 * the database (so the LevelDB lock is released).
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
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()))
        server.closeAllConnections()
      })
      return closing
    },
  }
}
