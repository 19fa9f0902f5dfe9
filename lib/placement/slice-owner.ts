/**
 * Which EdgePlacement a SinglePlacementSlice belongs to. An EdgePlacement's destinations live in
 * one or more slices in its space (the design's "associated collection"): the first is named after
 * the placement, further ones (when the destinations outgrow one object) get generated names. So
 * no reader may take a slice's name for its placement's: the placement is named by the slice's
 * EdgePlacement owner reference (the controller one first), else by the
 * `edge.kcp.io/source-placement` label the where step also writes, else (a slice nobody owns) by
 * the slice's own name, as before slices came in parts. Whether one incarnation (uid) of a
 * placement owns a slice is `sliceOwnedBy`.
 */
import { CLUSTER_ANNOTATION, type KubeObject } from '../kube/types.ts'
import { whereKey } from '../reconcile/keys.ts'

/** The label naming a slice's EdgePlacement (KubeStellar's key, defined there but unused). */
export const SOURCE_PLACEMENT_LABEL = 'edge.kcp.io/source-placement'

/** The kind of a slice's owner. */
export const PLACEMENT_KIND = 'EdgePlacement'

type Meta = Pick<KubeObject, 'metadata'>

/** The name of the EdgePlacement that owns the slice, or undefined when none does. */
export function owningPlacement(slice: Meta): string | undefined {
  const refs = (slice.metadata?.ownerReferences ?? []).filter(
    (r) => r.kind === PLACEMENT_KIND && r.apiVersion?.startsWith('edge.kcp.io/') && r.name
  )
  const ref = refs.find((r) => r.controller) ?? refs[0]
  return ref?.name
}

/** The name of the EdgePlacement whose destinations the slice holds (see the header). */
export function placementOfSlice(slice: Meta): string | undefined {
  const label = slice.metadata?.labels?.[SOURCE_PLACEMENT_LABEL]
  return owningPlacement(slice) ?? (label || undefined) ?? (slice.metadata?.name || undefined)
}

/** The where key (`<space id>/<placement name>`) of the placement a slice belongs to. */
export function sliceWhereKey(slice: Meta): string | undefined {
  const space = slice.metadata?.annotations?.[CLUSTER_ANNOTATION]
  const placement = placementOfSlice(slice)
  return space && placement ? whereKey(space, placement) : undefined
}

/** Is `slice` owned (ownerReference) by the EdgePlacement `placement` (this uid)? */
export function sliceOwnedBy(slice: Meta, placement: Meta): boolean {
  return (slice.metadata.ownerReferences ?? []).some(
    (r) => r.kind === PLACEMENT_KIND && r.uid === placement.metadata.uid
  )
}
