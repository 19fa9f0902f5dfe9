/**
 * A SinglePlacementSlice as an EdgePlacement should have it: named after the placement (a part:
 * a name generated from it, slice-plan.ts), one controller ownerReference to the EdgePlacement
 * (apiVersion, kind, name, uid), the `edge.kcp.io/source-placement` label naming it, and its
 * share of the resolved `destinations` at top level. `sliceUpdate` says what an existing slice
 * lacks, comparing destinations and owner references canonically (order and field order do not
 * matter), so an up-to-date slice is never rewritten. Owner references to other EdgePlacements (an
 * earlier incarnation with another uid) and any other controller reference are replaced; others
 * are kept, and so are other labels. A slice whose stored destinations did not decode is rewritten
 * whole.
 */
import type { EdgePlacementObject } from '../../lib/apis/edge-objects.ts'
import { EDGE_API_VERSION, type SinglePlacement } from '../../lib/apis/edge-v1alpha1.ts'
import type { KubeObject, OwnerReference } from '../../lib/kube/types.ts'
import {
  canonicalDestinations,
  type Destination,
  sameDestinations,
} from '../../lib/placement/destinations.ts'
import {
  owningPlacement,
  PLACEMENT_KIND,
  SOURCE_PLACEMENT_LABEL,
} from '../../lib/placement/slice-owner.ts'

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
  return owningPlacement(slice) === name
}

/**
 * A new slice of the placement: named after it (`primary`), or a part whose name the hub
 * generates from the placement's.
 */
export function desiredSlice(
  ep: EdgePlacementObject,
  destinations: Destination[],
  primary = true
): KubeObject {
  const name = ep.metadata.name ?? ''
  return {
    apiVersion: EDGE_API_VERSION,
    kind: 'SinglePlacementSlice',
    metadata: {
      ...(primary ? { name } : { generateName: `${name}-` }),
      labels: { [SOURCE_PLACEMENT_LABEL]: name },
      ownerReferences: [ownerRefTo(ep)],
    },
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
  const name = ep.metadata.name ?? ''
  const labels = slice.metadata.labels ?? {}
  const labelled = labels[SOURCE_PLACEMENT_LABEL] === name
  if (sameRefs && same && labelled) return undefined
  const metadata = {
    ...slice.metadata,
    labels: { ...labels, [SOURCE_PLACEMENT_LABEL]: name },
    ownerReferences: refs,
  }
  return { ...slice, metadata, destinations }
}
