/**
 * dynalite, the local DynamoDB, served in-process on 127.0.0.1 with its LevelDB files in the
 * data folder, so objects survive restarts. Table state changes are instant (no CREATING
 * delay), and idle connections are kept open. The port is picked by the OS unless given; `close()`
 * stops the HTTP server, lets requests in flight answer, ends its connections and closes the
 * database (so the LevelDB lock is released). With a `key` (npm start's store key, store-key.ts)
 * every request must carry a SigV4 signature made with it (sigv4-verify.ts), its body included;
 * any other — unsigned, another access key id, a wrong signature, a date more than 15 minutes
 * off, health GETs too — is answered 403 with a DynamoDB error (`UnrecognizedClientException`,
 * `InvalidSignatureException` or `MissingAuthenticationTokenException`) and never reaches
 * dynalite. Without one (a dynalite a test or the bench starts for itself) any signature passes,
 * as dynalite's own. Either way this module's listener reads each request before dynalite sees
 * it, so a client that drops its connection mid-body ends only its own request. dynalite's other
 * uncaught errors (LevelDB's) still end the process it runs in: `npm start` runs it in a child of
 * its own (dynalite-main.ts, dynalite-process.ts).
 */

import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { PassThrough } from 'node:stream'
import { type SigV4Refusal, verifySigV4 } from './sigv4-verify.ts'
import type { StoreKey } from './store-key.ts'

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
  /** Serve only requests signed with this key; absent: any. */
  key?: StoreKey
  /**
   * Sees each request that passed the signature check, by its operation (X-Amz-Target, e.g.
   * `DynamoDB_20120810.PutItem`), before dynalite does; false: it answered the request itself.
   */
  admit?: (target: string, res: ServerResponse) => boolean
}

export async function startDynalite(opts: DynaliteServerOptions): Promise<DynaliteServer> {
  const host = opts.host ?? '127.0.0.1'
  const server = dynalite({
    ...(opts.path ? { path: opts.path } : {}),
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
  })
  ownRequests(server, opts.key, opts.admit)
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

/** dynalite's own limit on a request body. */
const MAX_BODY_BYTES = 16 * 1024 * 1024

function refuse(res: ServerResponse, refusal: SigV4Refusal): void {
  const body = JSON.stringify({
    __type: `com.amazon.coral.service#${refusal.type}`,
    message: refusal.message,
  })
  res.writeHead(403, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': Buffer.byteLength(body),
    'x-amzn-requestid': 'edgeplane-local-refused',
  })
  res.end(body)
}

/**
 * Puts this listener in front of dynalite's: the body is read whole here — a request stream that
 * errors (a client gone mid-body) ends its own response, where dynalite's listener throws the
 * error, uncaught — checked with the headers when there is a `key`, and only then replayed to
 * dynalite as a stream of its own, which never errors.
 */
function ownRequests(
  server: Server,
  key: StoreKey | undefined,
  admit: DynaliteServerOptions['admit']
): void {
  const inner = server.listeners('request') as RequestListener[]
  server.removeAllListeners('request')
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_BODY_BYTES) chunks.push(chunk)
    })
    req.on('error', () => res.destroy())
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413, { 'content-length': 0, connection: 'close' })
        return void res.end()
      }
      const body = Buffer.concat(chunks)
      const refusal = key
        ? verifySigV4(
            { method: req.method ?? '', url: req.url ?? '/', rawHeaders: req.rawHeaders, body },
            key
          )
        : undefined
      if (refusal) return refuse(res, refusal)
      const target = req.headers['x-amz-target']
      if (admit && !admit(typeof target === 'string' ? target : '', res)) return
      const replay = Object.assign(new PassThrough(), {
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        method: req.method,
        url: req.url,
        socket: req.socket,
      })
      for (const listener of inner) listener(replay as unknown as IncomingMessage, res)
      replay.end(body)
    })
  })
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
