/**
 * An index from owner uid to dependents, kept in the key-value store so background garbage
 * collection can find an object's dependents without scanning every resource of a space. Entries
 * are written when an object gains an ownerReference and removed when it loses it or is deleted.
 * The index may hold stale entries (a crash between two writes); readers re-check the dependent's
 * ownerReferences before acting, so a stale entry never deletes anything wrongly.
 */
import type { KubeObject } from '../kube/types.ts'
import { kvKeyFits } from '../store/key-size.ts'
import type { KvStore, ObjectKey } from '../store/types.ts'

const ns = (cluster: string) => `owners:${cluster}`
const entryKey = (ownerUid: string, k: ObjectKey) =>
  `${ownerUid}|${k.group}|${k.resource}|${k.namespace}|${k.name}`

/**
 * The owner uids of `obj` the index can hold. An ownerReference's uid is client input; one too long
 * for a key names no object (uids are 36 characters), so it has no owner to be collected with and
 * is left out rather than failing the write.
 */
function ownerUids(key: ObjectKey, obj: KubeObject | undefined): Set<string> {
  const uids = (obj?.metadata.ownerReferences ?? []).map((r) => r.uid)
  return new Set(uids.filter((uid) => kvKeyFits(ns(key.cluster), entryKey(uid, key))))
}

/** Brings the index in line with a write of `key` from `before` to `after` (undefined = deleted). */
export async function updateOwnerIndex(
  kv: KvStore,
  key: ObjectKey,
  before: KubeObject | undefined,
  after: KubeObject | undefined
): Promise<void> {
  const was = ownerUids(key, before)
  const now = ownerUids(key, after)
  for (const uid of now) if (!was.has(uid)) await kv.put(ns(key.cluster), entryKey(uid, key), key)
  for (const uid of was)
    if (!now.has(uid)) await kv.delete(ns(key.cluster), entryKey(uid, key)).catch(() => undefined)
}

/** Keys of objects that (per the index) name `ownerUid` as an owner, in the given space. */
export async function dependentsOf(
  kv: KvStore,
  cluster: string,
  ownerUid: string
): Promise<ObjectKey[]> {
  const entries = await kv.list<ObjectKey>(ns(cluster), `${ownerUid}|`)
  return entries.map((e) => e.value)
}

export async function dropIndexEntry(kv: KvStore, ownerUid: string, key: ObjectKey): Promise<void> {
  await kv.delete(ns(key.cluster), entryKey(ownerUid, key)).catch(() => undefined)
}
