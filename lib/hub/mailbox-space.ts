/**
 * Which spaces are mailboxes: a space whose path is `root:espw:<name>` with a KubeStellar mailbox
 * name (`<inventory-space-id>-mb-<synctarget-uid>`). The hub asks this for every object operation
 * (projected-objects.ts), so answers are cached: a space's id never changes its path, so a known
 * space's answer is kept for good (in a bounded map per key-value store); an unknown id is asked
 * again next time, since its space may be created later. Whoever has just made a space tells the
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

/** Per store: space id -> whether it is a mailbox. */
const answers = perStore((_kv: KvStore) => new Map<string, boolean>())

function remember(known: Map<string, boolean>, spaceId: string, answer: boolean): void {
  if (known.size >= CACHE_LIMIT) {
    const oldest = known.keys().next().value
    if (oldest !== undefined) known.delete(oldest)
  }
  known.set(spaceId, answer)
}

/** Records the answer for a space just made (its id and path are fixed for good). */
export function rememberSpace(kv: KvStore, space: Pick<Space, 'id' | 'path'>): void {
  remember(answers(kv), space.id, isMailboxPath(space.path))
}

/** The mailbox check over the space registry in `kv` (one shared cache per store). */
export const mailboxSpaceCheck = perStore((kv: KvStore): MailboxCheck => {
  const known = answers(kv)
  const check: MailboxCheck = async (spaceId) => {
    const hit = known.get(spaceId)
    if (hit !== undefined) return hit
    if (spaceId === '*') return false
    const space = await getSpaceById(kv, spaceId)
    if (!space) return false
    const answer = isMailboxPath(space.path)
    remember(known, spaceId, answer)
    return answer
  }
  return check
})
