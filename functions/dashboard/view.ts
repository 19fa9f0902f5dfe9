/**
 * What one dashboard request reads with: the summarize step's batch reads (so a cell shows exactly
 * what the step summarizes), over a hub client of its own, with the request's principal and
 * clock, and the workload space it is about, checked against the principal (403 when the token
 * does not reach it, 404 when it does not exist). Lives for one request.
 */
import { builtinsFrom } from '../../lib/apis/builtins.ts'
import { authorizeSpace, cannotReach, type Principal } from '../../lib/auth/tokens.ts'
import { notFound } from '../../lib/errors.ts'
import { createHubClient, type HubClient } from '../../lib/hub/client.ts'
import type { HubDeps } from '../../lib/hub/deps.ts'
import { resolveSpaceCached } from '../../lib/hub/space-cache.ts'
import { registryForSpace } from '../../lib/hub/space-registry.ts'
import { pathOfId, type Space } from '../../lib/hub/spaces.ts'
import { memo } from '../../lib/placement/batch-memo.ts'
import { createReads, type Reads } from '../reconcile-summarize/reads.ts'
import { type Selected, selectedOf } from '../reconcile-summarize/scope.ts'

export const DASHBOARD_MANAGER = 'edgeplane-dashboard'

export type View = {
  hub: HubDeps
  client: HubClient
  reads: Reads
  principal: Principal
  nowMs: number
  /** The path of a space id (memoized; the id itself when the space is gone). */
  pathOf(spaceId: string): Promise<string>
}

export function createView(hub: HubDeps, principal: Principal, baseUrl: string): View {
  const client = createHubClient(hub, { fieldManager: DASHBOARD_MANAGER, baseUrl })
  const reads = createReads({
    client,
    kv: hub.kv,
    projections: hub.projections,
    registry: (id) => registryForSpace(hub, id),
    log: hub.log,
    ...(hub.caches.slices ? { slices: hub.caches.slices } : {}),
  })
  const paths = memo<string>()
  return {
    hub,
    client,
    reads,
    principal,
    nowMs: hub.now().getTime(),
    pathOf: (id) => paths(id, async () => (await pathOfId(hub.kv, id)) ?? id),
  }
}

/** The workload space at `path`, which the principal must reach (404 absent, 403 not reachable). */
/**
 * The workload space a request names (a path, or an id), when the session may use it. A space the
 * session cannot reach answers the same 403 whether it exists or not (as the API front does): a
 * path out of reach is refused before it is looked up, an id that names nothing as one out of
 * reach; only what the session could reach answers 404 when missing.
 */
export async function workloadSpace(view: View, path: string): Promise<Space> {
  const named = path === 'root' || path.includes(':')
  if (named) authorizeSpace(view.principal, path)
  const space = await resolveSpaceCached(view.hub.kv, path, view.nowMs)
  if (!space) {
    if (!named && view.principal.kind !== 'admin') throw cannotReach(view.principal, path)
    throw notFound('workspaces', { group: 'tenancy.kcp.io', name: path })
  }
  authorizeSpace(view.principal, space.path, path)
  return space
}

/** The space's live EdgePlacements (by name) with what each selects and where it goes. */
export async function placementsOf(view: View, space: Space): Promise<Selected[]> {
  const [snapshot, placements] = await Promise.all([
    view.reads.snapshot.space(space.id),
    view.reads.placementsIn(space.id),
  ])
  const builtins = view.hub.builtins ?? builtinsFrom()
  const sorted = [...placements].sort((a, b) =>
    (a.placement.metadata.name ?? '').localeCompare(b.placement.metadata.name ?? '')
  )
  return selectedOf(sorted, snapshot, builtins)
}
