/**
 * What a watcher from resourceVersion 0 would hold: `replayLog(objects, collection)` reads a
 * collection's whole change log, oldest first, and applies each event as a reflector does (ADDED
 * and MODIFIED store the object, DELETED removes it); `storedNames(objects, collection)` is what
 * the store holds. A complete log replays to exactly the stored objects, each at its own rv: both
 * come back as sorted `namespace/name@rv` lines so a test compares them with one `toEqual`.
 */
import type { CollectionRef, ObjectStore } from '../../lib/store/types.ts'

const line = (ns: string | undefined, name: string | undefined, rv: string | number | undefined) =>
  `${ns ?? ''}/${name ?? ''}@${rv ?? ''}`

export async function replayLog(
  objects: ObjectStore,
  collection: CollectionRef
): Promise<string[]> {
  const held = new Map<string, string>()
  let since = 0
  for (;;) {
    const { events, more } = await objects.changes({ ...collection, sinceRv: since, limit: 500 })
    for (const e of events) {
      const id = `${e.object.metadata.namespace ?? ''}/${e.object.metadata.name ?? ''}`
      if (e.type === 'DELETED') held.delete(id)
      else held.set(id, line(e.object.metadata.namespace, e.object.metadata.name, e.rv))
      since = Math.max(since, e.rv)
    }
    if (!more || events.length === 0) break
  }
  return [...held.values()].sort()
}

export async function storedNames(
  objects: ObjectStore,
  collection: CollectionRef
): Promise<string[]> {
  const { items } = await objects.list(collection)
  return items
    .map((o) => line(o.metadata.namespace, o.metadata.name, o.metadata.resourceVersion))
    .sort()
}
