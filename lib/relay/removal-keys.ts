/**
 * Wake-ups of the deletion lifecycle (lib/deletion/lifecycle.ts), for objects carrying the edge-removal finalizer with a
 * deletionTimestamp. In a mailbox space that is a tombstone (a copy leaving its edge): its events
 * — made by the translator's write, or by the state write recording the edge's confirmation —
 * wake the mailbox's translate key, which drops the tombstone once the edge confirmed. In a
 * workload space it is a source object being deleted while copies wait: the summarize keys of the
 * space's placements (their slices, named as their placements), which lift the finalizer once no
 * copy is left. The mailbox space id → name map is the summarize keys' (summarize-keys.ts).
 */
import { awaitsEdgeRemoval } from '../deletion/lifecycle.ts'
import { CLUSTER_ANNOTATION, type KubeObject } from '../kube/types.ts'
import { whereKey } from '../reconcile/keys.ts'
import type { SliceIndex } from './slice-index.ts'
import { SUMMARIZE_STEP, type SummarizeKeysState } from './summarize-keys.ts'

const TRANSLATE_STEP = 'translate'

type Key = { step: string; key: string }

export function removalKeys(
  obj: KubeObject,
  deps: { index: SliceIndex; summarize: SummarizeKeysState }
): Key[] {
  const m = obj.metadata
  if (!awaitsEdgeRemoval(m)) return []
  const space = m.annotations?.[CLUSTER_ANNOTATION]
  if (!space) return []
  const mailbox = deps.summarize.mailboxSpaces.get(space)
  if (mailbox) return [{ step: TRANSLATE_STEP, key: mailbox }]
  const keys = deps.index
    .slices()
    .filter((s) => s.space === space)
    .map((s) => whereKey(s.space, s.placement))
  return [...new Set(keys)].sort().map((key) => ({ step: SUMMARIZE_STEP, key }))
}
