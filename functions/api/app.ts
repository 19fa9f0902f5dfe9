/**
 * The hub's hono app: health endpoints without auth (ops-routes.ts; /readyz checks the store),
 * request counting for /metrics, the edge API's storm control on its mailbox routes
 * (functions/edge-api/admission.ts: 429 with a jittered Retry-After past the process's limit of
 * edge requests in work, before the token is checked), then for every other path a bearer-token
 * check and the route rule of lib/edge/edge-scope.ts (edge credentials reach only their own
 * mailbox's edge API; users none of it), the token's fair share of requests and watches in
 * flight (fair-share.ts: 429 past it; one limiter per app, so per isolate or process); then the edge API (functions/edge-api/routes.ts), the
 * reconcile hooks, and for every other path the space (from `/clusters/<path-or-id>`, `root` when
 * absent, `*` for the admin-only cross-space view; the token must reach it, except for the self
 * reviews, which answer for any token in any space; a space a token cannot reach answers the
 * same 403 whether it exists or not), and a dispatch on what the path addresses —
 * discovery, OpenAPI, version, or a resource (a legacy `/watch/` path becomes its collection's
 * watch: named-watch.ts). A space that does not exist (where its 404 may be said) still serves
 * discovery, as a fresh space would, so kubectl's discovery succeeds and the request itself gets
 * the one clear 404 naming the space: failed discovery makes kubectl log its "Unhandled Error"
 * lines five times before any error of its own, against kube-apiserver's 404 for an unknown path
 * too (client-go's memory cache logs every failed refresh). A hub in edge-cluster mode authorizes each such request by RBAC, with
 * impersonation, before it dispatches (rbac-gate.ts). The same app runs in the Worker and in
 * plain Node; its dependencies come from `getDeps`, called once per request. Every error renders
 * as a kube Status.
 */
import { type Context, Hono } from 'hono'
import {
  authenticate,
  authorizeAdmin,
  cannotReach,
  maySee,
  type Principal,
} from '../../lib/auth/tokens.ts'
import { authorizeRoute } from '../../lib/edge/edge-scope.ts'
import { EDGE_API_PREFIX } from '../../lib/edge/protocol.ts'
import { notFound } from '../../lib/errors.ts'
import type { HubDeps } from '../../lib/hub/deps.ts'
import { resolveSpaceCached } from '../../lib/hub/space-cache.ts'
import { ROOT, type Space } from '../../lib/hub/spaces.ts'
import {
  parseRequestPath,
  type RequestPath,
  splitClusterPrefix,
} from '../../lib/kube/request-path.ts'
import { createLogger } from '../../lib/log.ts'
import {
  createTokenLimiter,
  DEFAULT_TOKEN_LIMITS,
  type TokenLimiter,
} from '../../lib/quota/token-limiter.ts'
import { mountDashboard } from '../dashboard/routes.ts'
import { admitEdgeRequest } from '../edge-api/admission.ts'
import { mountEdgeApi } from '../edge-api/routes.ts'
import { handleHook } from '../hooks/routes.ts'
import type { ApiEnv } from './api-env.ts'
import { handleDiscovery } from './discovery-routes.ts'
import { fairShare } from './fair-share.ts'
import { resolveNamedWatch } from './named-watch.ts'
import { countRequests, handleLivez, handleMetrics, handleReadyz } from './ops-routes.ts'
import { parseQuery } from './query.ts'
import { rbacGate } from './rbac-gate.ts'
import { handleResource } from './resources.ts'
import { errorResponse, json } from './respond.ts'

const fallbackLog = createLogger()

/** The self reviews, which any authenticated principal may post in any space (see reviews.ts). */
const SELF_REVIEWS = new Set([
  'authentication.k8s.io/selfsubjectreviews',
  'authorization.k8s.io/selfsubjectaccessreviews',
  'authorization.k8s.io/selfsubjectrulesreviews',
])

function isSelfReview(path: RequestPath): boolean {
  return path.kind === 'resource' && SELF_REVIEWS.has(`${path.group}/${path.resource}`)
}

/**
 * The space a request addresses. A token that cannot reach it gets the same 403 whether it exists
 * or not (no existence oracle): a path it cannot reach is refused before it is looked up, and an
 * id is refused alike when it names nothing. Admins, and paths within a token's reach, get 404 for
 * a space that does not exist. The self reviews answer in any space for any token: in a space it
 * cannot reach they answer from the name alone (`allowed: false`), as for one that does not exist.
 */
type Addressed = {
  space: Space
  allSpaces: boolean
  /** The space does not exist: only discovery is served (`space` is a stand-in). */
  missing?: true
}

async function spaceFor(
  deps: HubDeps,
  principal: Principal,
  ref: string | undefined,
  path: RequestPath
): Promise<Addressed> {
  const anyPrincipal = isSelfReview(path)
  if (ref === '*') {
    authorizeAdmin(principal, 'use the cross-workspace view')
    return { space: ROOT, allSpaces: true }
  }
  const name = ref ?? 'root'
  const unreachable = () => {
    if (anyPrincipal) return { space: unreachableSpace(name), allSpaces: false }
    throw cannotReach(principal, name)
  }
  if (isPathRef(name) && !maySee(principal, name)) return unreachable()
  const space = await resolveSpaceCached(deps.kv, name, deps.now().getTime())
  if (!space) {
    // An id (or a path within reach, which is a 404): only the id's answer must not say more.
    if (principal.kind !== 'admin' && !isPathRef(name)) return unreachable()
    if (path.kind !== 'resource')
      return { space: { ...ROOT, id: '', path: name }, allSpaces: false, missing: true }
    throw notFound('workspaces', { group: 'tenancy.kcp.io', name })
  }
  if (!maySee(principal, space.path)) return unreachable()
  return { space, allSpaces: false }
}

/** A path (`root`, `root:a:b`) rather than a logical-cluster id. */
const isPathRef = (ref: string) => ref === 'root' || ref.includes(':')

/**
 * What a self review in a space the token cannot reach is answered in: root's registry (which
 * serves the reviews) under the name the client gave, so nothing of the real space shows.
 */
const unreachableSpace = (name: string): Space => ({ ...ROOT, path: name })

async function dispatch(c: Context<ApiEnv>): Promise<Response> {
  const deps = c.get('deps')
  const url = c.get('url')
  const { space: ref, rest } = splitClusterPrefix(url.pathname)
  const path = parseRequestPath(rest)
  if (path.kind === 'unknown') throw notFound('', { name: url.pathname })
  const { space, allSpaces, missing } = await spaceFor(deps, c.get('principal'), ref, path)
  const query = parseQuery(url)
  const user = await rbacGate({
    deps,
    principal: c.get('principal'),
    req: c.req.raw,
    path,
    rawPath: rest,
    query,
  })
  const prefix = ref === undefined ? '' : `/clusters/${ref}`
  if (path.kind !== 'resource')
    return handleDiscovery({
      deps,
      space,
      path,
      prefix,
      req: c.req.raw,
      ...(missing ? { missing } : {}),
    })
  const served = resolveNamedWatch(c.req.method, path, query)
  return handleResource({
    deps,
    space,
    allSpaces,
    path: served.path,
    query: served.query,
    req: c.req.raw,
    baseUrl: url.origin,
    principal: c.get('principal'),
    ...(c.get('pace') ? { pace: c.get('pace') } : {}),
    ...(user ? { user } : {}),
  })
}

/** What one app holds beyond its dependencies: its per-token limiter (fair-share.ts). */
export type AppOptions = { limiter?: TokenLimiter }

export function createApp(getDeps: (c: Context) => HubDeps, opts: AppOptions = {}): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>()
  const limiter = opts.limiter ?? createTokenLimiter(DEFAULT_TOKEN_LIMITS, Date.now)
  app.onError((err, c) =>
    errorResponse(err, c.get('deps')?.log ?? fallbackLog, `${c.req.method} ${c.req.path}`)
  )
  app.notFound((c) => json(notFound('', { name: c.req.path }).toStatus(), 404))
  app.get('/healthz', (c) => handleLivez(c, 'healthz'))
  app.get('/livez', (c) => handleLivez(c, 'livez'))
  app.get('/readyz', (c) => handleReadyz(c, getDeps(c)))
  app.use('*', countRequests(getDeps))
  // Storm control: shed before the token check, which may read the store (edge-api/admission.ts).
  app.use(`${EDGE_API_PREFIX}/mailboxes/*`, admitEdgeRequest)
  // The dashboard's API authenticates with its session cookie (functions/dashboard/session.ts).
  mountDashboard(app)
  app.use('*', async function authenticateRequest(c, next) {
    const deps = c.get('deps')
    const principal = await authenticate(
      deps.kv,
      c.req.header('authorization'),
      deps.now().getTime()
    )
    authorizeRoute(principal, c.get('url').pathname)
    c.set('principal', principal)
    await next()
  })
  app.use('*', fairShare(limiter))
  app.get('/metrics', handleMetrics)
  mountEdgeApi(app)
  app.post('/hooks/:step', handleHook)
  app.all('*', dispatch)
  return app
}
