/**
 * The hub app in plain Node (tests, benchmarks and simulated edge clusters): the same hono app as
 * the Worker, over a given store, served by @hono/node-server. Background work is tracked so
 * `close()` can wait for it. `defaults: true` (simulated edges) adds kube's API-server defaults;
 * `authorization: 'rbac'` (simulated edges) authorizes by RBAC as kube-apiserver does (lib/rbac/);
 * `budget` counts each request as one invocation with the Worker's limits (lib/budget/).
 * The server checks each raw request-target before hono sees it (raw-request-guard.ts): building
 * the WHATWG `Request` would resolve `..` segments, turning `configmaps/%2e%2e` into its Namespace.
 * A request @hono/node-server cannot turn into a `Request` at all (a Host it cannot build a URL
 * from) is a 400 Status rather than its empty 400. Each app is one hub with its own caches and kind
 * hooks (lib/hub/hub-caches.ts, builtin-hooks.ts), as a Worker isolate is: two apps in one process
 * share nothing but what their stores share. Held desired-state polls wait on an in-process bell
 * (lib/edge/bell.ts) the app's own translate step rings, longest hold `holdMaxSeconds` (default
 * HOLD_DEFAULT_SECONDS; 0: none); `close()` first ends the holds. Past `edgeMaxInFlight` edge requests in
 * work (default NODE_MAX_IN_FLIGHT) the next is shed (lib/edge/admission.ts). `close()` waits for background work, stops
 * accepting, ends idle connections at once and busy ones after CLOSE_GRACE_MS: a connection whose
 * client vanished without a FIN (one accepted through SYN cookies after its client's connect
 * timed out, under a flood of connections) looks open forever and held close() for good.
 * `pause()` is an outage (the storm bench, bench/storm.ts): the server stops listening and ends
 * every open connection at once, so clients meet refused connects and resets; `resume()` listens
 * on the same port again, the app, its caches and its store untouched.
 */

import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { getRequestListener, RequestError } from '@hono/node-server'
import { budgetEveryRequest } from '../lib/budget/fetch-wrapper.ts'
import type { BudgetConfig } from '../lib/budget/invocation.ts'
import { createEdgeAdmission, NODE_MAX_IN_FLIGHT } from '../lib/edge/admission.ts'
import { type InProcessBell, inProcessBell } from '../lib/edge/bell.ts'
import { HOLD_DEFAULT_SECONDS } from '../lib/edge/protocol.ts'
import { createWakeGate } from '../lib/edge/wake-gate.ts'
import { apiServerDefaults } from '../lib/edge-sim/defaults.ts'
import { badRequest, internalError } from '../lib/errors.ts'
import { builtinKindHooks } from '../lib/hub/builtin-hooks.ts'
import type { HubDeps } from '../lib/hub/deps.ts'
import { createHubCaches } from '../lib/hub/hub-caches.ts'
import { mailboxSpaceCheck, noProjections, withProjections } from '../lib/hub/projected-objects.ts'
import type { HubSite } from '../lib/hub/unavailable-subresources.ts'
import { createLogger, type Logger } from '../lib/log.ts'
import type { HubOps } from '../lib/metrics/hub-ops.ts'
import type { ProjectionStore } from '../lib/store/projection-types.ts'
import type { KvStore, ObjectStore } from '../lib/store/types.ts'
import { createApp } from './api/app.ts'
import { json } from './api/respond.ts'
import { GUARDED_SERVER_OPTIONS, guardListener, guardServer } from './raw-request-guard.ts'

export type NodeHubOptions = {
  /** The store's plain objects; wrapped here to serve projected copies when `projections` is given. */
  objects: ObjectStore
  kv: KvStore
  /** Mailbox manifests and bodies; without them mailbox spaces show stored objects only. */
  projections?: ProjectionStore
  log?: Logger
  /** Apply kube's API-server defaults on every write (simulated edge clusters); off for the hub. */
  defaults?: boolean
  /** What the hub serves (default center spaces; a simulated edge cluster says so in refusals). */
  site?: HubSite
  /** Metrics and a store-checking /readyz (lib/metrics/hub-ops.ts); without: 404 and `ok`. */
  ops?: HubOps
  /** `rbac`: authorize by the store's RBAC objects, with impersonation (simulated edge clusters). */
  authorization?: 'rbac'
  /** Run each request as one invocation with this budget, as the Worker does (lib/budget/). */
  budget?: BudgetConfig
  /** The longest hold of an edge's desired-state poll, seconds (default 300; 0: none). */
  holdMaxSeconds?: number
  /**
   * Edge requests in work at once before the next is shed with 429 and Retry-After
   * (lib/edge/admission.ts; default NODE_MAX_IN_FLIGHT; 0: never).
   */
  edgeMaxInFlight?: number
  port?: number
  host?: string
}

export type NodeHub = {
  url: string
  port: number
  deps: HubDeps
  /** Waits for background work started so far (garbage collection, terminations). */
  settle(): Promise<void>
  /** Stops listening and ends every connection now (an outage); the app keeps its state. */
  pause(): Promise<void>
  /** Listens on the same port again after `pause()`. */
  resume(): Promise<void>
  close(): Promise<void>
}

export function nodeHubDeps(
  opts: NodeHubOptions,
  pending: Set<Promise<unknown>>,
  bell: InProcessBell = inProcessBell()
): HubDeps {
  const { projections } = opts
  const holdMaxSeconds = opts.holdMaxSeconds ?? HOLD_DEFAULT_SECONDS
  const maxInFlight = opts.edgeMaxInFlight ?? NODE_MAX_IN_FLIGHT
  return {
    objects: projections
      ? withProjections(opts.objects, projections, mailboxSpaceCheck(opts.kv))
      : opts.objects,
    kv: opts.kv,
    projections: projections ?? noProjections,
    now: () => new Date(),
    uid: () => crypto.randomUUID(),
    log: opts.log ?? createLogger({ level: 'warn' }),
    background: (p) => {
      const tracked = p.catch(() => undefined).finally(() => pending.delete(tracked))
      pending.add(tracked)
    },
    caches: createHubCaches(),
    hooks: builtinKindHooks(),
    ...(opts.defaults ? { defaults: apiServerDefaults } : {}),
    ...(opts.site ? { site: opts.site } : {}),
    ...(opts.ops ? { ops: opts.ops } : {}),
    ...(opts.authorization ? { authorization: opts.authorization } : {}),
    ...(holdMaxSeconds > 0
      ? { edgeHold: { bell, maxSeconds: holdMaxSeconds, wakes: createWakeGate() } }
      : {}),
    ...(maxInFlight > 0 ? { edgeAdmission: createEdgeAdmission({ limit: maxInFlight }) } : {}),
  }
}

/** The app and its deps without a listening server, for `app.request()` tests. */
export function createNodeApp(opts: NodeHubOptions) {
  const pending = new Set<Promise<unknown>>()
  const bell = inProcessBell()
  const deps = nodeHubDeps(opts, pending, bell)
  const app = createApp(() => deps)
  if (opts.budget) budgetEveryRequest(app, opts.budget)
  const settle = async () => {
    while (pending.size > 0) await Promise.all([...pending])
  }
  return { app, deps, settle, bell }
}

/** The answer to a request the listener could not build (the app never saw it). */
function listenerError(e: unknown): Response {
  const err =
    e instanceof RequestError
      ? badRequest(`malformed request: ${e.message}`)
      : internalError('an internal error occurred; see the server log')
  return json(err.toStatus(), err.code)
}

/** How long close() lets requests in flight answer before it ends their connections. */
const CLOSE_GRACE_MS = 5_000

export async function startNodeHub(opts: NodeHubOptions): Promise<NodeHub> {
  const { app, deps, settle, bell } = createNodeApp(opts)
  const host = opts.host ?? '127.0.0.1'
  const listener = getRequestListener(app.fetch, { hostname: host, errorHandler: listenerError })
  const server = guardServer(createServer(GUARDED_SERVER_OPTIONS, guardListener(listener)))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, host, () => {
        server.off('error', reject)
        resolve()
      })
    })
  return {
    url: `http://${host}:${port}`,
    port,
    deps,
    settle,
    pause: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
    },
    resume: listen,
    close: async () => {
      bell.close()
      await settle()
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      const grace = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS)
      await closed
      clearTimeout(grace)
    },
  }
}
