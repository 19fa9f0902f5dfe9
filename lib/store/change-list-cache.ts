/**
 * The decoded change lists of projection log items, kept per store: every watcher reading the
 * change log (the relay, a user's cross-space watch, each mailbox watch) decodes the same items,
 * and decoding one (gunzip, JSON, the stored schema) was about a sixth of the Worker's CPU while a
 * placement fanned out under two watchers. A log item is written once at its own resourceVersion
 * and never rewritten (a late one is logged again at a fresh one), so its key names its content
 * for good. Bounded: the least recently used list goes first. The lists are shared; readers
 * never change them.
 */
import { createLru } from '../lru.ts'
import type { ProjectionChange } from './projection-codec.ts'

/** Lists kept at most: at a few KB each, a few MB of the isolate's memory. */
export const CHANGE_LIST_LIMIT = 1024

export type ChangeListCache = {
  /** The list decoded for `key`, decoding it with `decode` on a miss. */
  get(key: string, decode: () => Promise<ProjectionChange[]>): Promise<ProjectionChange[]>
  size(): number
}

export function createChangeListCache(limit = CHANGE_LIST_LIMIT): ChangeListCache {
  const lists = createLru<Promise<ProjectionChange[]>>(limit)
  return {
    get(key, decode) {
      return lists.get(key, () => {
        const decoding = decode()
        // A failed decode is not kept: the next reader tries again and meets the error itself.
        decoding.catch(() => lists.forget(key, decoding))
        return decoding
      })
    },
    size: () => lists.size(),
  }
}
