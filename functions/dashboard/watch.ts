/**
 * `GET /ui/api/watch?space=<path>`: the hub's own watch of the space's EdgePlacements, served to
 * the dashboard's session (the same ndjson watch events kubectl gets, with bookmarks, ending after
 * WATCH_SECONDS so the page reconnects). A placement's status moves whenever the summarize step
 * sees its copies change state or an edge turn stale, which is when the page re-reads what it
 * shows. Goes through the hub's resource handler, so the principal's reach is checked there too.
 */
import type { Principal } from '../../lib/auth/tokens.ts'
import type { HubDeps } from '../../lib/hub/deps.ts'
import type { Space } from '../../lib/hub/spaces.ts'
import { parseRequestPath } from '../../lib/kube/request-path.ts'
import { parseQuery } from '../api/query.ts'
import { handleResource } from '../api/resources.ts'

export const WATCH_SECONDS = 290

export async function watchPlacements(
  deps: HubDeps,
  at: { space: Space; principal: Principal; req: Request; baseUrl: string }
): Promise<Response> {
  const url = new URL(
    `/apis/edge.kcp.io/v1alpha1/edgeplacements?watch=1&allowWatchBookmarks=true&timeoutSeconds=${WATCH_SECONDS}`,
    at.baseUrl
  )
  const path = parseRequestPath(url.pathname)
  if (path.kind !== 'resource') throw new Error('the EdgePlacement watch path does not parse')
  const req = new Request(url, { method: 'GET', signal: at.req.signal })
  return handleResource({
    deps,
    space: at.space,
    allSpaces: false,
    path,
    query: parseQuery(url),
    req,
    baseUrl: at.baseUrl,
    principal: at.principal,
  })
}
