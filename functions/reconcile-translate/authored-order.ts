/**
 * When each source of a merge was last updated, by values the server alone writes (issue 35: a
 * client must not decide it; managedFields times are the client's to write, 2099 included). The
 * measure is the hub's resourceVersion, one counter across all spaces: a source counts as updated
 * at the resourceVersion the translator first saw its present AUTHORED content at — what a merge
 * reads of it, minus what the steps themselves write on workload objects (the status a singleton
 * returns, the edge-removal finalizer, the executing count; and managedFields, resourceVersion and
 * the other per-object metadata). Taking the object's present resourceVersion instead would let
 * those writes, which follow the edges' state, choose the winner and flip a merged copy back and
 * forth.
 *
 * The memory is kept in the key-value store, one item per merged source (ns `translate-authored`,
 * key `<space id>/<group>/<resource>/<namespace>/<name>`, value `{uid, content, rv}`: the object's
 * uid, the hash of its authored content and the resourceVersion it was first seen at), shared by
 * every mailbox the object reaches: read only for identities sent by more than one space to a
 * destination (one BatchGetItem per batch for what the batch had not asked yet), written only when
 * the content (or the object, by uid) changed, with the item's version as precondition. A lost race
 * is read again and taken when it names the same content; a failed read fails the run, which is
 * retried (it deletes nothing). An item names the content it was written for, so a stale or lost
 * one only makes the source count as updated at its present resourceVersion: still the server's.
 * What a batch learned is kept for the batch (the snapshot's objects do not change within it).
 * Items of objects no longer merged stay (small, bounded by the objects ever merged; not swept).
 */

import { isConflict } from '../../lib/errors.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { travelling } from '../../lib/placement/annotations.ts'
import { contentHash } from '../../lib/store/projection-hash.ts'
import type { KvEntry, KvStore } from '../../lib/store/types.ts'

export const AUTHORED_NS = 'translate-authored'

/** The stored memory of one source. */
export type AuthoredItem = { uid: string; content: string; rv: string }

/** One contribution to a merge: its space, its object key (overlap.ts `objectKey`), the object. */
export type AuthoredSource = { spaceId: string; key: string; object: KubeObject }

export type AuthoredOrder = {
  /** Per `<space id>/<object key>`, the resourceVersion each source counts as updated at. */
  of(sources: readonly AuthoredSource[]): Promise<Map<string, bigint>>
}

const SKIPPED: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata', 'status'])

/** The hash of what a client authored of `o` (see the header). */
export function authoredContent(o: KubeObject): Promise<string> {
  const body = Object.fromEntries(Object.entries(o).filter(([k]) => !SKIPPED.has(k)))
  return contentHash({
    body,
    labels: travelling(o.metadata.labels) ?? {},
    annotations: travelling(o.metadata.annotations) ?? {},
    ownerReferences: o.metadata.ownerReferences ?? [],
  })
}

const rvOf = (o: KubeObject): bigint => {
  try {
    return BigInt(o.metadata.resourceVersion ?? '0')
  } catch {
    return 0n
  }
}

/** The remembered resourceVersion when the item is about this object and content. */
export function rememberedRv(
  item: AuthoredItem | undefined,
  uid: string,
  content: string
): bigint | undefined {
  if (!item || item.uid !== uid || item.content !== content) return undefined
  try {
    return BigInt(item.rv)
  } catch {
    return undefined
  }
}

const itemKey = (s: AuthoredSource) => `${s.spaceId}/${s.key}`

/** One batch's order (create one per batch, like the snapshot). */
export function authoredOrder(kv: KvStore): AuthoredOrder {
  const known = new Map<string, Promise<bigint>>()
  const settle = async (
    s: AuthoredSource,
    stored: KvEntry<AuthoredItem> | undefined
  ): Promise<bigint> => {
    const uid = s.object.metadata.uid ?? ''
    const content = await authoredContent(s.object)
    const was = rememberedRv(stored?.value, uid, content)
    if (was !== undefined) return was
    const now = rvOf(s.object)
    const item: AuthoredItem = { uid, content, rv: now.toString() }
    try {
      await kv.put(AUTHORED_NS, itemKey(s), item, stored ? stored.version : null)
      return now
    } catch (e) {
      if (!isConflict(e)) throw e
      const again = await kv.get<AuthoredItem>(AUTHORED_NS, itemKey(s))
      return rememberedRv(again?.value, uid, content) ?? now
    }
  }
  return {
    async of(sources) {
      const asked = sources.filter(
        (s) => !known.has(`${itemKey(s)}@${s.object.metadata.resourceVersion ?? ''}`)
      )
      if (asked.length > 0) {
        const read = kv.getMany<AuthoredItem>(AUTHORED_NS, [...new Set(asked.map(itemKey))])
        for (const s of asked) {
          const at = `${itemKey(s)}@${s.object.metadata.resourceVersion ?? ''}`
          if (known.has(at)) continue
          const hit = read.then((items) => settle(s, items.get(itemKey(s))))
          hit.catch(() => known.delete(at))
          known.set(at, hit)
        }
      }
      const out = new Map<string, bigint>()
      for (const s of sources)
        out.set(
          itemKey(s),
          await (known.get(
            `${itemKey(s)}@${s.object.metadata.resourceVersion ?? ''}`
          ) as Promise<bigint>)
        )
      return out
    },
  }
}
