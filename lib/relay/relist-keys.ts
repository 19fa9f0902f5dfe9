/**
 * The relay's keys after a relist of SinglePlacementSlices: the slices the index holds that the
 * list no longer has vanished while the watch was away (their DELETED event is lost), so they are
 * forgotten and their mailboxes' translate keys woken.
 */
import { CLUSTER_ANNOTATION, type KubeObject } from '../kube/types.ts'
import type { SliceIndex } from './slice-index.ts'
import { type ResourceRef, type StepKey, translate } from './step-keys.ts'

const EDGE = 'edge.kcp.io'
const spaceOf = (obj: KubeObject) => obj.metadata?.annotations?.[CLUSTER_ANNOTATION] || undefined

/**
 * After a relist: the slices the index holds that the list no longer has vanished while the watch
 * was away (their DELETED event is lost); forgets them and wakes their mailboxes.
 */
export function keysForRelist(
  ref: ResourceRef,
  items: readonly KubeObject[],
  deps: { index: SliceIndex }
): StepKey[] {
  if (ref.group !== EDGE || ref.resource !== 'singleplacementslices') return []
  const listed = new Set(items.map((o) => `${spaceOf(o)}\u0000${o.metadata?.name}`))
  const woken: string[] = []
  for (const s of deps.index.slices())
    if (!listed.has(`${s.space}\u0000${s.name}`)) woken.push(...deps.index.remove(s.space, s.name))
  return translate(woken)
}
