/**
 * What a Rollout governs now: the live objects of its workload space its "what" selects — the
 * same selection as an EdgePlacement's (`namespaceSelector`, `nonNamespacedObjects`,
 * lib/placement/select.ts, so edge-kind and not-for-edge objects are never governed) — less the
 * objects an older Rollout of the space selects too (lib/rollout/governor.ts: the oldest governs),
 * as a revision's content (lib/rollout/revision.ts: per object its copy key and the hash of what
 * translation reads of it, and the bodies by hash), with where it stands among the space's other
 * Rollouts (for its Conflict condition, conflicts.ts). One snapshot of the space serves every
 * Rollout's selection. A failed read throws.
 */
import type { Builtins } from '../../lib/apis/builtins.ts'
import { ROLLOUTS } from '../../lib/apis/gvr.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import type { Registry } from '../../lib/kube/registry.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { selectForPlacement } from '../../lib/placement/select.ts'
import { createSnapshot } from '../../lib/placement/snapshot.ts'
import { type Overlaps, overlapsOf } from '../../lib/rollout/governor.ts'
import { governedContent, revisionKeyOf } from '../../lib/rollout/revision.ts'

export type GovernedDeps = {
  client: HubClient
  builtins: Builtins
  registry(spaceId: string): Promise<Registry>
}

const aged = (r: KubeObject) => ({
  name: r.metadata.name ?? '',
  creationTimestamp: r.metadata.creationTimestamp ?? '',
})

export async function readGoverned(deps: GovernedDeps, spaceId: string, rollout: KubeObject) {
  const snapshot = createSnapshot({ client: deps.client, registry: deps.registry })
  const [space, all] = await Promise.all([
    snapshot.space(spaceId),
    deps.client.list(spaceId, ROLLOUTS),
  ])
  const keysOf = (r: KubeObject) =>
    new Set(selectForPlacement(r, space, deps.builtins).objects.map(revisionKeyOf))
  const selected = selectForPlacement(rollout, space, deps.builtins).objects
  const others = all
    .filter((r) => r.metadata.name !== rollout.metadata.name && !r.metadata.deletionTimestamp)
    .map((r) => ({ ...aged(r), keys: keysOf(r) }))
  const overlaps: Overlaps = overlapsOf(
    { ...aged(rollout), keys: new Set(selected.map(revisionKeyOf)) },
    others
  )
  const content = await governedContent(
    selected.filter((o) => overlaps.governs.has(revisionKeyOf(o)))
  )
  return { ...content, overlaps }
}
