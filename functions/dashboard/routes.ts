/**
 * The dashboard's API, `/ui/api/*` (docs/architecture/dashboard.md): the session (session.ts),
 * the spaces, the placements × edges matrix and its drill-downs, the edges and one edge, the
 * placement preview and the live watch. Mounted by the hub's app before its bearer-token check: these routes
 * authenticate with the session cookie instead, and every one (login included) requires the
 * dashboard's header. Read-only: nothing here writes to the hub (the preview is a dry run).
 * Answers are JSON, never cached; every error is a kube Status. Every answer under /ui — these
 * routes, and the hub's 401 or 404 for any other path there — carries the dashboard's security
 * headers (ui-headers.ts: no framing, no sniffing).
 */
import type { Context, Hono } from 'hono'
import { z } from 'zod'
import type { Principal } from '../../lib/auth/tokens.ts'
import { methodNotAllowed, notFound } from '../../lib/errors.ts'
import type { ApiEnv } from '../api/api-env.ts'
import { cellOf } from './cell-detail.ts'
import { edgeDetail } from './edge-detail.ts'
import { edgesOf } from './edges.ts'
import { matrixOf } from './matrix.ts'
import { placementDetail } from './placement-detail.ts'
import { previewOf } from './preview.ts'
import { decodeQuery, flag, labelsParam, nameParam, spaceParam, windowSchema } from './query.ts'
import { login, logout, requireUiHeader, sessionPrincipal, whoami } from './session.ts'
import { spacesOf } from './spaces.ts'
import { uiHeaders } from './ui-headers.ts'
import { createView, type View, workloadSpace } from './view.ts'
import { watchPlacements } from './watch.ts'

const MatrixQuery = windowSchema(100, 50).extend({
  space: spaceParam,
  labels: labelsParam,
  attention: flag,
})
const CellQuery = z.object({
  space: spaceParam,
  placement: nameParam,
  edge: z.string().min(1).max(400),
})
const PlacementQuery = z.object({ space: spaceParam, name: nameParam })
const EdgesQuery = windowSchema(200, 100).extend({ labels: labelsParam, stale: flag })
const SpaceQuery = z.object({ space: spaceParam })
const EdgeQuery = z.object({ key: z.string().min(1).max(400) })

const answer = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  })

type Handler = (c: Context<ApiEnv>, view: View, principal: Principal) => Promise<Response>

/** A session route: the header, the cookie's principal, a view of the hub for this request. */
const session =
  (h: Handler) =>
  async (c: Context<ApiEnv>): Promise<Response> => {
    requireUiHeader(c)
    const deps = c.get('deps')
    const principal = await sessionPrincipal(deps, c)
    return h(c, createView(deps, principal, c.get('url').origin), principal)
  }

const GET: Record<string, Handler> = {
  session: async (_c, _v, p) => answer(whoami(p)),
  spaces: async (_c, v) => answer(await spacesOf(v)),
  matrix: async (c, v) => {
    const q = decodeQuery(MatrixQuery, c.req.query())
    return answer(await matrixOf(v, await workloadSpace(v, q.space), q))
  },
  cell: async (c, v) => {
    const q = decodeQuery(CellQuery, c.req.query())
    return answer(await cellOf(v, await workloadSpace(v, q.space), q))
  },
  placement: async (c, v) => {
    const q = decodeQuery(PlacementQuery, c.req.query())
    return answer(await placementDetail(v, await workloadSpace(v, q.space), q.name))
  },
  edges: async (c, v) => answer(await edgesOf(v, decodeQuery(EdgesQuery, c.req.query()))),
  edge: async (c, v) => answer(await edgeDetail(v, decodeQuery(EdgeQuery, c.req.query()).key)),
  watch: async (c, v, principal) => {
    const q = decodeQuery(SpaceQuery, c.req.query())
    const space = await workloadSpace(v, q.space)
    return watchPlacements(v.hub, {
      space,
      principal,
      req: c.req.raw,
      baseUrl: c.get('url').origin,
    })
  },
}

const POST: Record<string, Handler> = {
  preview: async (c, v) => {
    const q = decodeQuery(SpaceQuery, c.req.query())
    return answer(await previewOf(v, await workloadSpace(v, q.space), c.req.raw))
  },
  logout: async () => logout(),
}

export function mountDashboard(app: Hono<ApiEnv>): void {
  app.use('/ui', uiHeaders)
  app.use('/ui/*', uiHeaders)
  app.all('/ui/api/:route', async (c) => {
    const route = c.req.param('route')
    if (route === 'login') {
      if (c.req.method !== 'POST') throw methodNotAllowed('login takes POST')
      requireUiHeader(c)
      return login(c.get('deps'), c)
    }
    const table = c.req.method === 'GET' ? GET : c.req.method === 'POST' ? POST : undefined
    const h = table && Object.hasOwn(table, route) ? table[route] : undefined
    if (h) return session(h)(c)
    if (Object.hasOwn(GET, route) || Object.hasOwn(POST, route))
      throw methodNotAllowed(`${c.req.method} is not served on /ui/api/${route}`)
    throw notFound('', { name: c.req.path })
  })
  app.all('/ui/api/*', (c) => {
    throw notFound('', { name: c.req.path })
  })
}
