/**
 * The API's space lookups, remembered per store (one per isolate or process): every request names
 * its space, and reading the space's record again for each one was a store request of every API
 * call (registering an edge: two of its nine). A record is trusted while the `spaces` epoch
 * (lib/store/epochs.ts) stands where it stood when the record was read, for at most
 * SPACE_TRUST_MS; the epoch moves when a space turns Terminating and when it goes (spaces.ts), so
 * the hub that made the move sees it at once and every other one within EPOCH_MAX_AGE_MS — as
 * long as a request that resolved its space a moment before the move could already take. An id
 * names one path for good (ids are never reused), so id lookups are kept without an epoch. What is
 * absent is not remembered: a space made a moment ago is found at once. When the epoch cannot be
 * read, nothing is trusted.
 */
import { currentEpoch } from '../store/epochs.ts'
import { perStore } from '../store/per-store.ts'
import type { KvStore } from '../store/types.ts'
import { getSpaceByPath, pathOfId, ROOT, type Space } from './spaces.ts'

/** How long a record is trusted at most, whatever the epoch (ms). */
export const SPACE_TRUST_MS = 60_000
const MAX_CACHED = 4096

type Cached = { space: Space; epoch: number; at: number }
/** Values only, never a read in flight: a Worker request must not wait on I/O another started. */
type Caches = { byPath: Map<string, Cached>; paths: Map<string, string> }

const cachesOf = perStore((): Caches => ({ byPath: new Map(), paths: new Map() }))

async function byPath(kv: KvStore, path: string, now: number): Promise<Space | undefined> {
  if (path === 'root') return ROOT
  const { byPath: cache } = cachesOf(kv)
  // The epoch before the record: a move after this read always untrusts what is read next.
  const epoch = await currentEpoch(kv, 'spaces', now)
  const hit = cache.get(path)
  if (hit && epoch === hit.epoch && now - hit.at < SPACE_TRUST_MS && now >= hit.at) return hit.space
  const space = await getSpaceByPath(kv, path)
  if (!space || epoch === undefined) {
    cache.delete(path)
    return space
  }
  if (cache.size >= MAX_CACHED) cache.clear()
  cache.set(path, { space, epoch, at: now })
  return space
}

async function byId(kv: KvStore, id: string, now: number): Promise<Space | undefined> {
  if (id === 'root') return ROOT
  const { paths } = cachesOf(kv)
  let path = paths.get(id)
  if (path === undefined) {
    path = await pathOfId(kv, id)
    if (path === undefined) return undefined
    if (paths.size >= MAX_CACHED) paths.clear()
    paths.set(id, path)
  }
  return byPath(kv, path, now)
}

/** resolveSpace (spaces.ts) through the caches above. */
export async function resolveSpaceCached(
  kv: KvStore,
  pathOrId: string,
  now: number = Date.now()
): Promise<Space | undefined> {
  if (pathOrId.includes(':')) return byPath(kv, pathOrId, now)
  return (await byId(kv, pathOrId, now)) ?? (await byPath(kv, pathOrId, now))
}
