/**
 * The edges a Rollout's objects reach, by wave (for the rollout step and the dry run's preview):
 * the destinations of every SinglePlacementSlice of its workload space (what the where step
 * resolved for the space's EdgePlacements), one per SyncTarget uid (in several Locations: the
 * first by name, as translation judges it), each in the first wave whose locationSelectors match
 * its Location's labels (lib/rollout/waves.ts; the catch-all wave last). The Locations are read
 * once per inventory space named. An edge no wave takes is in none (listed apart: `unassigned`).
 * A failed read throws.
 */
import type { RolloutSpec } from '../apis/edge-rollout.ts'
import { LOCATIONS, PLACEMENT_SLICES } from '../apis/gvr.ts'
import type { HubClient } from '../hub/client.ts'
import type { Labels } from '../kube/label-selector.ts'
import { waveOf } from './waves.ts'

/** One edge a Rollout's objects reach: its inventory space, SyncTarget, Location and labels. */
export type RolloutEdge = {
  cluster: string
  syncTargetName: string
  syncTargetUid: string
  locationName?: string
  labels: Labels | undefined
}

/** The edges of one wave of the spec, in spec order. */
export type WaveEdges = { name: string; edges: RolloutEdge[] }

/** The waves' edges, and how many edges no wave takes (no catch-all wave). */
export type WavesOfEdges = WaveEdges[] & { unassigned?: RolloutEdge[] }

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
): Promise<WavesOfEdges> {
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
      const location = str(d.locationName)
      const before = found.get(`${cluster}/${uid}`)
      // In several Locations: the first by name, as translation judges its wave.
      if (before && before.location <= location) continue
      found.set(`${cluster}/${uid}`, { cluster, location, name, uid })
    }
  }
  const clusters = [...new Set([...found.values()].map((d) => d.cluster))]
  const labels = new Map<string, Labels | undefined>()
  for (const cluster of clusters)
    for (const l of await client.list(cluster, LOCATIONS))
      labels.set(`${cluster}/${l.metadata.name ?? ''}`, l.metadata.labels)
  const waves: WavesOfEdges = spec.waves.map((w) => ({ name: w.name, edges: [] as RolloutEdge[] }))
  const unassigned: RolloutEdge[] = []
  const sorted = [...found.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  for (const [, d] of sorted) {
    const key = `${d.cluster}/${d.location}`
    if (!labels.has(key)) continue
    const edge: RolloutEdge = {
      cluster: d.cluster,
      syncTargetName: d.name,
      syncTargetUid: d.uid,
      locationName: d.location,
      labels: labels.get(key),
    }
    const i = waveOf(spec.waves, edge.labels)
    if (i !== undefined) waves[i]?.edges.push(edge)
    else unassigned.push(edge)
  }
  waves.unassigned = unassigned
  return waves
}
