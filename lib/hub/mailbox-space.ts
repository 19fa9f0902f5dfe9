/**
 * Which spaces are mailboxes: a space whose path is `root:espw:<name>` with a KubeStellar mailbox
 * name (`<inventory-space-id>-mb-<synctarget-uid>`). The hub asks this for every object operation
 * (projected-objects.ts), so paths are cached: a space's id never changes its path, so a known
 * space's path is kept for good (in a bounded map per key-value store, which the service-provider
 * check shares, service-provider-space.ts); an unknown id is asked again next time, since its
 * space may be created later. Whoever has just made a space tells the
 * cache (`rememberSpace`), so the first write into a new mailbox (its `default` Namespace) does not
 * read the space back.
 */
import { mailboxOfSpacePath } from '../reconcile/keys.ts'
import { perStore } from '../store/per-store.ts'
import type { KvStore } from '../store/types.ts'
import { getSpaceById, type Space } from './spaces.ts'

export type MailboxCheck = (spaceId: string) => Promise<boolean>

const CACHE_LIMIT = 20_000

/** True for the path of a mailbox space. */
export const isMailboxPath = (path: string): boolean => mailboxOfSpacePath(path) !== undefined

/** Per store: space id -> its path (fixed for good once the space exists). */
const paths = perStore((_kv: KvStore) => new Map<string, string>())

function remember(known: Map<string, string>, spaceId: string, path: string): void {
  if (known.size >= CACHE_LIMIT) {
    const oldest = known.keys().next().value
    if (oldest !== undefined) known.delete(oldest)
  }
  known.set(spaceId, path)
}

/** Records a space just made (its id and path are fixed for good). */
export function rememberSpace(kv: KvStore, space: Pick<Space, 'id' | 'path'>): void {
  remember(paths(kv), space.id, space.path)
}

/**
 * The path of the space with this id, through the cache above (one shared map per store): a
 * known id costs nothing, an unknown one a read, remembered once the space exists (undefined, and
 * asked again next time, while it does not). Mailbox and service-provider checks share it.
 */
export const knownSpacePath = perStore((kv: KvStore) => {
  const known = paths(kv)
  return async (spaceId: string): Promise<string | undefined> => {
    const hit = known.get(spaceId)
    if (hit !== undefined) return hit
    if (spaceId === '*') return undefined
    const space = await getSpaceById(kv, spaceId)
    if (!space) return undefined
    remember(known, spaceId, space.path)
    return space.path
  }
})

/** The mailbox check over the space registry in `kv` (one shared cache per store). */
export const mailboxSpaceCheck = perStore((kv: KvStore): MailboxCheck => {
  const pathOf = knownSpacePath(kv)
  return async (spaceId) => {
    const path = await pathOf(spaceId)
    return path !== undefined && isMailboxPath(path)
  }
})
