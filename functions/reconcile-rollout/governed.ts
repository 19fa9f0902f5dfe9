/**
 * What a Rollout governs now: the live objects of its workload space its "what" selects — the
 * same selection as an EdgePlacement's (`namespaceSelector`, `nonNamespacedObjects`,
 * lib/placement/select.ts, so edge-kind and not-for-edge objects are never governed) — as a
 * revision's content (lib/rollout/revision.ts: per object its copy key and the hash of what
 * translation reads of it, and the bodies by hash). A failed read throws.
 */
import type { Builtins } from '../../lib/apis/builtins.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import type { Registry } from '../../lib/kube/registry.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { selectForPlacement } from '../../lib/placement/select.ts'
import { createSnapshot } from '../../lib/placement/snapshot.ts'
import { governedContent } from '../../lib/rollout/revision.ts'

export type GovernedDeps = {
  client: HubClient
  builtins: Builtins
  registry(spaceId: string): Promise<Registry>
}

export async function readGoverned(deps: GovernedDeps, spaceId: string, rollout: KubeObject) {
  const snapshot = createSnapshot({ client: deps.client, registry: deps.registry })
  const space = await snapshot.space(spaceId)
  const selection = selectForPlacement(rollout, space, deps.builtins)
  return governedContent(selection.objects)
}
