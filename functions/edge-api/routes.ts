/**
 * The edge API's routes, mounted on the hub app (functions/api/app.ts) behind its auth middleware,
 * which has already limited edge credentials to their own mailbox (lib/edge/edge-scope.ts):
 * - `GET  /edge/v1/mailboxes/<mailbox>/desired`: the desired state (desired.ts), held when the
 *   poll asks and the process holds (desired-hold.ts);
 * - `POST /edge/v1/mailboxes/<mailbox>/reports`: statuses, upsync, problems, heartbeat (reports.ts);
 * - `POST /edge/v1/bootstrap`: credential + manifests for one SyncTarget, admin only (bootstrap.ts).
 * The mailbox routes check the mailbox parameter against the caller again; before the auth
 * middleware, the app's storm control (admission.ts) has already shed them when the process works
 * on its limit of edge requests. Any other path under
 * `/edge/v1` is 404 (405 for a known path with another method), never the hub's dispatch.
 */
import type { Context, Hono } from 'hono'
import { authorizeMailbox } from '../../lib/edge/edge-scope.ts'
import { EDGE_API_PREFIX } from '../../lib/edge/protocol.ts'
import { methodNotAllowed, notFound } from '../../lib/errors.ts'
import type { ApiEnv } from '../api/api-env.ts'
import { handleBootstrap } from './bootstrap.ts'
import { handleDesiredHeld } from './desired-hold.ts'
import { handleReports } from './reports.ts'

type Handler = (c: Context<ApiEnv>) => Promise<Response>

const MAILBOX = `${EDGE_API_PREFIX}/mailboxes/:mailbox`

function forMailbox(handler: Handler): Handler {
  return (c) => {
    authorizeMailbox(c.get('principal'), c.req.param('mailbox') ?? '')
    return handler(c)
  }
}

function only(method: string): Handler {
  return async (c) => {
    throw methodNotAllowed(`${c.req.method} is not supported on ${c.req.path}; use ${method}`)
  }
}

export function mountEdgeApi(app: Hono<ApiEnv>): void {
  app.get(`${MAILBOX}/desired`, forMailbox(handleDesiredHeld))
  app.all(`${MAILBOX}/desired`, only('GET'))
  app.post(`${MAILBOX}/reports`, forMailbox(handleReports))
  app.all(`${MAILBOX}/reports`, only('POST'))
  app.post(`${EDGE_API_PREFIX}/bootstrap`, handleBootstrap)
  app.all(`${EDGE_API_PREFIX}/bootstrap`, only('POST'))
  app.all(`${EDGE_API_PREFIX}/*`, async (c) => {
    throw notFound('', { name: c.req.path })
  })
}
