/**
 * A member mailbox's watch of its shared manifest (shared-manifest.ts). A change of shared content
 * is logged once, in the shared manifest's own partition (`l#<shared-id>#<group>/<resource>`);
 * the watch of each member reads it beside the mailbox's own partition
 * (change-log.ts merges both in rv order, under the same settling and limit rules). A listed copy
 * is the member's when it moved past the member's mark for that key (below the mark, the
 * member's own write already logged it), and is handed out as the member's copy: its own uid,
 * creation time and generation base, the shared content, and the member's reported state.
 * `sharedFeed` reads what that takes from the member's manifest item: one GetItem per read of a
 * mailbox collection, none for a mailbox that shares nothing.
 */

import { GetItemCommand } from '@aws-sdk/client-dynamodb'
import { type Item, optBytes, readNumber, s } from './attrs.ts'
import type { StoreContext } from './context.ts'
import { logPk, padRv } from './keys.ts'
import { decodeEntries, type ProjectionChange } from './projection-codec.ts'
import { entryKey } from './projection-diff.ts'
import { isProjectionLogItem, projectionChanges } from './projection-log.ts'
import { checkMailbox, manifestKey } from './projection-manifest.ts'
import { getCopyStatesOf } from './projection-state.ts'
import type { SharedFeed } from './projection-types.ts'
import { queryAll } from './query-all.ts'
import { memberCopy, membershipOf } from './shared-manifest.ts'
import type { ChangesOptions } from './types.ts'

/** A shared manifest's log item, with the copies it lists as the member holds them. */
export type MemberUnit = { item: Item; changes: ProjectionChange[]; member: SharedFeed }

/** The member mailbox's feed, or undefined when it shares nothing. */
export async function sharedFeed(
  ctx: StoreContext,
  mailbox: string
): Promise<SharedFeed | undefined> {
  checkMailbox(mailbox)
  const out = await ctx.client.send(
    new GetItemCommand({ TableName: ctx.table, Key: manifestKey(mailbox), ConsistentRead: true })
  )
  const membership = out.Item ? await membershipOf(out.Item) : undefined
  if (!out.Item || !membership) return undefined
  const entries = await decodeEntries(optBytes(out.Item, 'body') ?? new Uint8Array())
  return {
    id: membership.id,
    mailbox,
    entries: new Map(entries.map((e) => [entryKey(e), e])),
    marks: membership.marks,
    joined: membership.joined,
  }
}

/** The member's copies among a shared log item's changes. */
async function memberChanges(
  ctx: StoreContext,
  item: Item,
  at: { feed: SharedFeed; namespace: string | undefined }
): Promise<ProjectionChange[]> {
  const { feed, namespace } = at
  const listed = await projectionChanges(ctx, item, namespace)
  return listed.flatMap((c): ProjectionChange[] => {
    const key = entryKey(c.entry)
    const own = feed.entries.get(key)
    const mark = feed.marks[key]
    if (!own || !mark || readNumber(item, 'rv') <= feed.joined) return []
    return [{ type: c.type, entry: memberCopy(own, c.entry, mark) }]
  })
}

/** The shared changes after `opts.sinceRv` that are the member's, oldest first (all of them). */
export async function sharedUnits(
  ctx: StoreContext,
  opts: ChangesOptions,
  feed: SharedFeed
): Promise<MemberUnit[]> {
  const units: MemberUnit[] = []
  const items = await queryAll(ctx, {
    KeyConditionExpression: 'pk = :pk AND sk > :since',
    ExpressionAttributeValues: {
      ':pk': s(logPk(feed.id, opts.group, opts.resource)),
      ':since': s(padRv(opts.sinceRv)),
    },
    ConsistentRead: true,
  })
  for (const item of items) {
    if (!isProjectionLogItem(item)) continue
    const changes = await memberChanges(ctx, item, { feed, namespace: opts.namespace })
    if (changes.length > 0) units.push({ item, changes, member: feed })
  }
  return units.sort((a, b) => readNumber(a.item, 'rv') - readNumber(b.item, 'rv'))
}

/**
 * Gives the copies of member units (a member's feed, or a cross-space expansion) their mailboxes'
 * reported states: one BatchGetItem per 100 copies, whatever the number of mailboxes.
 */
export async function withMemberStates(
  ctx: StoreContext,
  copies: readonly { mailbox: string; change: ProjectionChange }[]
): Promise<void> {
  if (copies.length === 0) return
  const byMailbox = new Map<string, ProjectionChange[]>()
  for (const { mailbox, change } of copies)
    byMailbox.set(mailbox, [...(byMailbox.get(mailbox) ?? []), change])
  const wants = [...byMailbox].map(([mailbox, changes]) => ({
    mailbox,
    keys: changes.map((c) => c.entry),
  }))
  const states = await getCopyStatesOf(ctx, wants)
  for (const { mailbox, change } of copies) {
    const state = states.get(mailbox)?.get(entryKey(change.entry))
    if (state?.uid === change.entry.uid) change.state = state
  }
}
