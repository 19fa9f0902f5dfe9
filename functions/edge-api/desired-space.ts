/**
 * The mailbox space behind `/edge/v1/mailboxes/<name>`: `root:espw:<name>`, resolved through the
 * space registry and remembered per process (per store) for MAILBOX_SPACE_CACHE_MS, thirty minutes:
 * far longer than an agent's poll interval (15 s by default), so a poll does not pay this read
 * again each time the short token cache expires. That is safe because a mailbox name never maps to
 * another space while it exists (the name carries the SyncTarget's uid), and a deleted mailbox is
 * noticed anyway: its manifest goes first, and the desired handler asks again with `fresh`
 * whenever the remembered space shows no manifest and the agent does not already hold the empty
 * state. Only Ready spaces are remembered. Absent, or not a mailbox name at all (which is never
 * looked up) → 404; Terminating → 503 (the agent keeps what it
 * runs: a mailbox being deleted is not an instruction to remove everything).
 */
import { WORKSPACES } from '../../lib/apis/gvr.ts'
import { BoundedMap } from '../../lib/bounded-map.ts'
import { ApiError, notFound } from '../../lib/errors.ts'
import { getSpaceByPath, type Space } from '../../lib/hub/spaces.ts'
import { isMailboxName, mailboxSpacePath } from '../../lib/reconcile/keys.ts'
import { perStore } from '../../lib/store/per-store.ts'
import type { KvStore } from '../../lib/store/types.ts'

/** How long a resolved mailbox space is remembered. */
export const MAILBOX_SPACE_CACHE_MS = 30 * 60_000
const LIMIT = 20_000
/** Per store, its mailboxes' spaces: past LIMIT the longest-remembered goes. */
const cacheOf = perStore((): Map<string, { at: number; space: Space }> => new BoundedMap(LIMIT))

/** The space of mailbox `name`, and whether it came from the process cache. */
export async function mailboxSpace(
  kv: KvStore,
  name: string,
  opts: { fresh?: boolean } = {}
): Promise<{ space: Space; cached: boolean }> {
  const cache = cacheOf(kv)
  const hit = cache.get(name)
  if (!opts.fresh && hit && Date.now() - hit.at < MAILBOX_SPACE_CACHE_MS)
    return { space: hit.space, cached: true }
  cache.delete(name)
  const path = mailboxSpacePath(name)
  const space = isMailboxName(name) ? await getSpaceByPath(kv, path) : undefined
  if (!space) throw notFound('workspaces', { group: WORKSPACES.group, name: path })
  if (space.phase !== 'Ready')
    throw new ApiError(
      503,
      'ServiceUnavailable',
      `mailbox workspace ${path} is being deleted; keep the current state and retry later`,
      { details: { retryAfterSeconds: 30 } }
    )
  cache.set(name, { at: Date.now(), space })
  return { space, cached: false }
}
