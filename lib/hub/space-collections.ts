/**
 * Which collections (`<group>/<resource>`) of a space may hold objects, so a reader of a whole
 * workload space (the translate and summarize steps' snapshot, lib/placement/snapshot.ts) lists
 * those instead of every resource the space serves: one key-value Query instead of about 45.
 *
 * The index is kept only for spaces created with it (`Space.collections === 'indexed'`, set when
 * the space is made, never changed; mailbox spaces are not indexed, nothing reads them whole).
 * Its namespace `space-collections/<space id>` holds the marker `*`, written with the space before
 * any object can be created there, and one key per collection, written (unconditionally,
 * idempotently) by the hub's create path before the object itself (lib/hub/write.ts). So while
 * the marker is there the index names every collection that holds an object, or more (entries
 * are never removed: a collection emptied since costs one empty list). A space without the marker
 * (made by an earlier release, or a creation that stopped before writing it) answers undefined,
 * and the reader lists everything, as before.
 *
 * Writers remember the collections they noted per space (`HubCaches.collections`): the index only
 * grows, so a remembered entry is never wrong, and a forgotten one is written again harmlessly.
 */
import type { KvStore } from '../store/types.ts'
import type { HubCaches } from './hub-caches.ts'

/** What of a space (spaces.ts `Space`) the index needs. */
type IndexedSpace = { id: string; collections?: 'indexed' }

const MARKER = '*'
/** Spaces whose noted collections a hub remembers; past it, the memory starts again. */
const REMEMBERED_SPACES = 10_000

const nsOf = (spaceId: string) => `space-collections/${spaceId}`

export const collectionOf = (group: string, resource: string) => `${group}/${resource}`

/** Writes the marker of a new space's index, which starts empty. */
export async function openCollections(kv: KvStore, spaceId: string): Promise<void> {
  await kv.put(nsOf(spaceId), MARKER, 1)
}

/** Records that `collection` of `space` may hold objects, before an object is created there. */
export async function noteCollection(
  deps: { kv: KvStore; caches: HubCaches },
  space: IndexedSpace,
  collection: string
): Promise<void> {
  if (space.collections !== 'indexed') return
  const known = deps.caches.collections
  if (known.get(space.id)?.has(collection)) return
  await deps.kv.put(nsOf(space.id), collection, 1)
  if (!known.has(space.id) && known.size >= REMEMBERED_SPACES) known.clear()
  const set = known.get(space.id) ?? new Set<string>()
  set.add(collection)
  known.set(space.id, set)
}

/**
 * The collections of a space that may hold objects, read consistently; undefined when the space
 * keeps no index (then every collection may).
 */
export async function collectionsOf(
  kv: KvStore,
  spaceId: string
): Promise<ReadonlySet<string> | undefined> {
  const entries = await kv.list(nsOf(spaceId))
  if (!entries.some((e) => e.key === MARKER)) return undefined
  return new Set(entries.filter((e) => e.key !== MARKER).map((e) => e.key))
}

/** Removes a deleted space's index (its objects are gone). */
export async function forgetCollections(kv: KvStore, spaceId: string): Promise<void> {
  const entries = await kv.list(nsOf(spaceId))
  // The marker last: until then a reader still trusts what is left, which only over-states.
  const ordered = [
    ...entries.filter((e) => e.key !== MARKER),
    ...entries.filter((e) => e.key === MARKER),
  ]
  for (const e of ordered) await kv.delete(nsOf(spaceId), e.key)
}
