/**
 * The edges a Rollout's objects reach, by wave: the destinations of every SinglePlacementSlice of
 * its workload space (what the where step resolved for the space's EdgePlacements), one per
 * SyncTarget uid, each in the first wave whose locationSelectors match its Location's labels
 * (lib/rollout/waves.ts; the catch-all wave last). The Locations are read once per inventory space
 * named. An edge no wave takes is in none and is left out. A failed read throws.
 */
import type { RolloutSpec } from '../../lib/apis/edge-rollout.ts'
import { LOCATIONS, PLACEMENT_SLICES } from '../../lib/apis/gvr.ts'
import type { HubClient } from '../../lib/hub/client.ts'
import type { Labels } from '../../lib/kube/label-selector.ts'
import { waveOf } from '../../lib/rollout/waves.ts'
import type { RolloutEdge, WaveEdges } from './tally.ts'

type Destination = {
  cluster?: unknown
  locationName?: unknown
  syncTargetName?: unknown
  syncTargetUID?: unknown
}

const str = (v: unknown) => (typeof v === 'string' ? v : '')

export async function readWaveEdges(
  client: HubClient,
  spaceId: string,
  spec: RolloutSpec
): Promise<WaveEdges[]> {
  const slices = await client.list(spaceId, PLACEMENT_SLICES)
  const found = new Map<string, { cluster: string; location: string; name: string; uid: string }>()
  for (const s of slices) {
    if (s.metadata.deletionTimestamp) continue
    const ds = Array.isArray(s.destinations) ? (s.destinations as Destination[]) : []
    for (const d of ds) {
      const uid = str(d.syncTargetUID)
      const cluster = str(d.cluster)
      if (!uid || !cluster) continue
      const name = str(d.syncTargetName)
      found.set(`${cluster}/${uid}`, { cluster, location: str(d.locationName), name, uid })
    }
  }
  const clusters = [...new Set([...found.values()].map((d) => d.cluster))]
  const labels = new Map<string, Labels | undefined>()
  for (const cluster of clusters)
    for (const l of await client.list(cluster, LOCATIONS))
      labels.set(`${cluster}/${l.metadata.name ?? ''}`, l.metadata.labels)
  const waves: WaveEdges[] = spec.waves.map((w) => ({ name: w.name, edges: [] }))
  const sorted = [...found.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  for (const [, d] of sorted) {
    const key = `${d.cluster}/${d.location}`
    if (!labels.has(key)) continue
    const edge: RolloutEdge = {
      cluster: d.cluster,
      syncTargetName: d.name,
      syncTargetUid: d.uid,
      labels: labels.get(key),
    }
    const i = waveOf(spec.waves, edge.labels)
    if (i !== undefined) waves[i]?.edges.push(edge)
  }
  return waves
}
