/**
 * The SinglePlacementSlice an EdgePlacement should have: same name, one controller
 * ownerReference to the EdgePlacement (apiVersion, kind, name, uid), and the resolved
 * `destinations` at top level. `sliceChanges` says what an existing slice lacks, comparing
 * destinations and owner references canonically (order and field order do not matter), so an
 * up-to-date slice is never rewritten. Owner references to other EdgePlacements (an earlier
 * incarnation with another uid) and any other controller reference are replaced; others are kept.
 * A slice whose stored destinations did not decode is rewritten whole.
 */
import type { EdgePlacementObject } from '../../lib/apis/edge-objects.ts'
import { EDGE_API_VERSION, type SinglePlacement } from '../../lib/apis/edge-v1alpha1.ts'
import type { KubeObject, OwnerReference } from '../../lib/kube/types.ts'
import {
  canonicalDestinations,
  type Destination,
  sameDestinations,
} from '../../lib/placement/destinations.ts'

export const PLACEMENT_KIND = 'EdgePlacement'

export function ownerRefTo(ep: EdgePlacementObject): OwnerReference {
  return {
    apiVersion: EDGE_API_VERSION,
    kind: PLACEMENT_KIND,
    name: ep.metadata.name ?? '',
    uid: ep.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  }
}

/** Whether the slice is owned by an EdgePlacement called `name` (of any uid). */
export function ownedByPlacement(slice: KubeObject, name: string): boolean {
  return (slice.metadata.ownerReferences ?? []).some(
    (r) => r.kind === PLACEMENT_KIND && r.apiVersion.startsWith('edge.kcp.io/') && r.name === name
  )
}

export function desiredSlice(ep: EdgePlacementObject, destinations: Destination[]): KubeObject {
  return {
    apiVersion: EDGE_API_VERSION,
    kind: 'SinglePlacementSlice',
    metadata: { name: ep.metadata.name ?? '', ownerReferences: [ownerRefTo(ep)] },
    destinations,
  }
}

function ownerRefsFor(
  existing: readonly OwnerReference[],
  ep: EdgePlacementObject
): OwnerReference[] {
  const others = existing.filter((r) => r.kind !== PLACEMENT_KIND && !r.controller)
  return [ownerRefTo(ep), ...others]
}

const refKey = (r: OwnerReference) =>
  JSON.stringify([
    r.apiVersion,
    r.kind,
    r.name,
    r.uid,
    r.controller ?? false,
    r.blockOwnerDeletion ?? false,
  ])

const refsKey = (refs: readonly OwnerReference[]) => refs.map(refKey).sort().join('\n')

export type SliceUpdate = {
  /** The slice as stored (what an update rewrites). */
  slice: KubeObject
  /** Its destinations as decoded; undefined when the stored slice did not decode. */
  current: readonly SinglePlacement[] | undefined
  ep: EdgePlacementObject
  destinations: Destination[]
}

/** The slice updated to match, or undefined when it already does. */
export function sliceUpdate(u: SliceUpdate): KubeObject | undefined {
  const { slice, ep, destinations } = u
  const refs0 = slice.metadata.ownerReferences ?? []
  const refs = ownerRefsFor(refs0, ep)
  const sameRefs = refsKey(refs0) === refsKey(refs)
  const same = u.current && sameDestinations(canonicalDestinations(u.current), destinations)
  if (sameRefs && same) return undefined
  return { ...slice, metadata: { ...slice.metadata, ownerReferences: refs }, destinations }
}
