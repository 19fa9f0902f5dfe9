/**
 * Who belongs to a shared manifest (shared-manifest.ts), for the cross-space watch: a change of
 * shared content is logged once, in the shared manifest's partition and, like a mailbox's, in
 * the cross-space feed; a `/clusters/*` watch expands it into each member's copy
 * (change-log.ts). The members index has one small item per member, pk `smm#<shared-id>`, sk the
 * mailbox id, holding the rv of the member's joining write (`jn`) and, per shared copy key, what
 * the member's copy keeps of its own: uid, creation time, `added`, and its generation's offset
 * from the shared entry's (constant while the member stays, shared-membership.ts). A member's
 * item is put with its joining write's log items and deleted when the mailbox leaves or goes;
 * like the log items, a crash between the manifest write and these loses cross-space events
 * only (a relist heals it), never a copy.
 */

import { z } from 'zod'
import { internalError } from '../errors.ts'
import { type Item, n, optBytes, optString, readNumber, readString, s } from './attrs.ts'
import { bodyText } from './body-codec.ts'
import type { StoreContext } from './context.ts'
import type { ProjectionChange } from './projection-codec.ts'
import { entryKey } from './projection-diff.ts'
import { projectionChanges } from './projection-log.ts'
import type { ManifestEntry, SharedMembership } from './projection-types.ts'
import { queryAll } from './query-all.ts'

export const MEMBERS_PK_PREFIX = 'smm#'
const membersPk = (id: string) => `${MEMBERS_PK_PREFIX}${id}`

export const memberKey = (id: string, mailbox: string): Item => ({
  pk: s(membersPk(id)),
  sk: s(mailbox),
})

/** What a member's copy of one shared key keeps of its own. */
type OwnIds = { uid: string; created: string; added?: number; offset: number }

/** One member as the index holds it. */
export type Member = { mailbox: string; joined: number; ids: Map<string, OwnIds> }

const IdsSchema = z.record(
  z.string(),
  z.tuple([z.string(), z.string(), z.number().nullable(), z.number()])
)

/** The index item of `mailbox`, a member since `membership.joined` holding `entries`. */
export function memberItem(
  mailbox: string,
  membership: SharedMembership,
  entries: readonly ManifestEntry[]
): Item {
  const ids: Record<string, [string, string, number | null, number]> = {}
  for (const e of entries) {
    const mark = membership.marks[entryKey(e)]
    if (mark) ids[entryKey(e)] = [e.uid, e.created, e.added ?? null, e.generation - mark.generation]
  }
  const data = new TextEncoder().encode(JSON.stringify(ids))
  return { ...memberKey(membership.id, mailbox), jn: n(membership.joined), ids: { B: data } }
}

async function fromItem(item: Item): Promise<Member> {
  let parsed: unknown
  try {
    parsed = JSON.parse(await bodyText(optBytes(item, 'ids') ?? new Uint8Array()))
  } catch (e) {
    throw internalError('stored shared member is not JSON', e)
  }
  const ids = IdsSchema.safeParse(parsed)
  if (!ids.success) throw internalError('stored shared member is malformed')
  const own = new Map<string, OwnIds>()
  for (const [key, [uid, created, added, offset]] of Object.entries(ids.data)) {
    own.set(key, { uid, created, ...(added === null ? {} : { added }), offset })
  }
  return { mailbox: readString(item, 'sk'), joined: readNumber(item, 'jn'), ids: own }
}

/** Every member of the shared manifest `id`: one Query per 1 MB. */
export async function readMembers(ctx: StoreContext, id: string): Promise<Member[]> {
  const items = await queryAll(ctx, {
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': s(membersPk(id)) },
    ConsistentRead: true,
  })
  return Promise.all(items.map(fromItem))
}

/** One member's copy in a cross-space expansion of a shared change. */
export type MemberChange = { mailbox: string; change: ProjectionChange }

/**
 * A shared manifest's log item as the cross-space feed shows it: each listed copy once per member
 * that had joined before it, as that member's copy. `members` caches the index per shared id for
 * the read.
 */
export async function expandShared(
  ctx: StoreContext,
  item: Item,
  namespace: string | undefined,
  members: Map<string, Promise<Member[]>>
): Promise<MemberChange[]> {
  const id = optString(item, 'cl') ?? ''
  let reading = members.get(id)
  if (!reading) {
    reading = readMembers(ctx, id)
    members.set(id, reading)
  }
  const [all, listed] = await Promise.all([reading, projectionChanges(ctx, item, namespace)])
  const rv = readNumber(item, 'rv')
  return all.flatMap((m) => {
    if (m.joined >= rv) return []
    return listed.flatMap(({ type, entry }): MemberChange[] => {
      const own = m.ids.get(entryKey(entry))
      if (!own) return []
      const { uid, created, added, offset } = own
      const copy = { ...entry, uid, created, generation: entry.generation + offset }
      delete copy.added
      if (added !== undefined) copy.added = added
      return [{ mailbox: m.mailbox, change: { type, entry: copy } }]
    })
  })
}
