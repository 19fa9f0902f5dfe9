/**
 * Where a workload object of a space runs: the SyncTargets (edges) of every live EdgePlacement of
 * the space that selects it, by name, sorted. Read as the summarize step and the dashboard read
 * it (functions/reconcile-summarize/reads.ts and scope.ts: translate's selection over the batch
 * snapshot, each placement's destinations from its slice), so the edges named are those the
 * object is sent to. Used only to answer what needs a running container (logs, exec,
 * port-forward) with where to ask instead: a rare request, read afresh each time.
 */
import { builtinsFrom } from '../../lib/apis/builtins.ts'
import { createHubClient } from '../../lib/hub/client.ts'
import type { HubDeps } from '../../lib/hub/deps.ts'
import { registryForSpace } from '../../lib/hub/space-registry.ts'
import type { Space } from '../../lib/hub/spaces.ts'
import { createReads } from '../reconcile-summarize/reads.ts'
import { selectedOf } from '../reconcile-summarize/scope.ts'

/** The object asked about: its resource, namespace and name in `space`. */
export type ObjectRef = { group: string; resource: string; namespace: string; name: string }

const MANAGER = 'edgeplane-api'

export async function edgesOf(deps: HubDeps, space: Space, ref: ObjectRef): Promise<string[]> {
  const reads = createReads({
    client: createHubClient(deps, { fieldManager: MANAGER }),
    kv: deps.kv,
    projections: deps.projections,
    registry: (id) => registryForSpace(deps, id),
    log: deps.log,
    ...(deps.caches.slices ? { slices: deps.caches.slices } : {}),
  })
  const [snapshot, placements] = await Promise.all([
    reads.snapshot.space(space.id),
    reads.placementsIn(space.id),
  ])
  const edges = new Set<string>()
  for (const p of selectedOf(placements, snapshot, deps.builtins ?? builtinsFrom())) {
    const selects = p.objects.some(
      (o) =>
        o.group === ref.group &&
        o.resource === ref.resource &&
        (o.object.metadata.namespace ?? '') === ref.namespace &&
        o.object.metadata.name === ref.name
    )
    if (selects) for (const d of p.destinations) edges.add(d.syncTargetName)
  }
  return [...edges].sort()
}
