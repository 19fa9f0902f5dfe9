/**
 * What a Rollout would do if it were stored now, without writing anything: the preview a server
 * dry run of a Rollout answers with in `status.preview` (lib/hub/rollout-hooks.ts). Computed by
 * the rollout step's own rules: the objects it selects over the workload space read as the steps'
 * snapshot reads it (lib/placement/select.ts), less those an older Rollout of the space selects
 * (governor.ts: the oldest governs), and the edges the space's placements reach now, each in the
 * first wave whose selectors match its Location (wave-edges.ts), with how many a revision reaches
 * at once (`maxEdges`, gate.ts's count). No peer previews a rollout; this lets a user check the
 * waves with `kubectl create --dry-run=server -o yaml` before any change moves. Reads: the space's
 * snapshot and Rollouts, its SinglePlacementSlices, and the Locations of the inventory spaces they
 * name.
 */
import { type Builtins, builtinsFrom } from '../apis/builtins.ts'
import type { RolloutSpec } from '../apis/edge-rollout.ts'
import { resolveCount } from '../apis/edge-rollout.ts'
import { ROLLOUTS } from '../apis/gvr.ts'
import { MAX_PREVIEW_LISTED } from '../apis/placement-preview.ts'
import type { PreviewEdge, RolloutPreview } from '../apis/rollout-preview.ts'
import type { KubeObject } from '../kube/types.ts'
import { type PreviewDeps, refOf } from '../placement/preview.ts'
import { selectForPlacement } from '../placement/select.ts'
import { createSnapshot } from '../placement/snapshot.ts'
import { overlapsOf } from './governor.ts'
import { revisionKeyOf } from './revision.ts'
import { type RolloutEdge, readWaveEdges } from './wave-edges.ts'

const bounded = <T>(all: readonly T[]) => ({
  count: all.length,
  items: all.slice(0, MAX_PREVIEW_LISTED),
})

const edgeOf = (e: RolloutEdge): PreviewEdge => ({
  cluster: e.cluster,
  locationName: e.locationName ?? '',
  syncTargetName: e.syncTargetName,
  syncTargetUID: e.syncTargetUid,
})

const aged = (r: KubeObject) => ({
  name: r.metadata.name ?? '',
  creationTimestamp: r.metadata.creationTimestamp ?? '',
})

/** What `rollout` (its spec decoded as `spec`), of workload space `spaceId`, would do now. */
export async function previewRollout(
  deps: PreviewDeps,
  spaceId: string,
  rollout: KubeObject,
  spec: RolloutSpec
): Promise<RolloutPreview> {
  const builtins: Builtins = deps.builtins ?? builtinsFrom()
  const snapshot = createSnapshot({
    client: deps.client,
    registry: deps.registry,
    ...(deps.collections ? { collections: deps.collections } : {}),
    ...(deps.onInvalid ? { onInvalid: deps.onInvalid } : {}),
  })
  const [space, all, waves] = await Promise.all([
    snapshot.space(spaceId),
    deps.client.list(spaceId, ROLLOUTS),
    readWaveEdges(deps.client, spaceId, spec),
  ])
  const selected = selectForPlacement(rollout, space, builtins).objects
  // A dry run of a create has no creation time yet: it is the youngest of the space.
  const me = { ...aged(rollout), creationTimestamp: rollout.metadata.creationTimestamp ?? '~' }
  const others = all
    .filter((r) => r.metadata.name !== rollout.metadata.name && !r.metadata.deletionTimestamp)
    .map((r) => ({
      ...aged(r),
      keys: new Set(selectForPlacement(r, space, builtins).objects.map(revisionKeyOf)),
    }))
  const overlaps = overlapsOf({ ...me, keys: new Set(selected.map(revisionKeyOf)) }, others)
  const governed = selected.filter((o) => overlaps.governs.has(revisionKeyOf(o))).map(refOf)
  const olders = overlaps.governedBy.map((o) => ({ name: o.name, count: o.keys.length }))
  return {
    governed: bounded(governed),
    ...(olders.length > 0 ? { governedByOlder: olders.slice(0, MAX_PREVIEW_LISTED) } : {}),
    waves: spec.waves.map((w, i) => {
      const list = waves[i]?.edges ?? []
      return {
        name: w.name,
        inFlight:
          w.maxEdges === undefined
            ? list.length
            : Math.min(list.length, resolveCount(w.maxEdges, list.length)),
        approval: w.approval === true,
        edges: bounded(list.map(edgeOf)),
      }
    }),
    unassigned: bounded((waves.unassigned ?? []).map(edgeOf)),
  }
}
