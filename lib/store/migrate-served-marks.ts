/**
 * The migration from format 1 to 2 (format.ts): every mailbox whose agent was ever served gets a
 * served mark (projection-served.ts), so the deletion lifecycle can tell edges that may hold a
 * copy from edges that never received one. Format 1 recorded nothing of what was served; what it
 * did record is what the edge reported: a mailbox with any copy state had an agent that received
 * its manifest, so it is marked served at its current manifest version (every entry it holds may
 * be at the edge). A mailbox without one is left unmarked, as never served: its tombstones go at
 * the next translate run. (An agent that received a manifest but never reported anything, not
 * even one applied copy, is taken for one that never connected: its copies leave the center
 * without waiting for it, and the agent still removes them when it comes back, as it removes
 * everything it owns that is no longer desired.) A mark a poll already wrote is never replaced.
 *
 * One page: a Scan of up to SCAN_PAGE items from `cursor`, keeping the manifests; per manifest one
 * Query (Limit 1) for a copy state and, when found, one conditional PutItem. Idempotent, so a
 * page repeated after a lost cursor write does no harm.
 */
import { QueryCommand, ScanCommand } from '@aws-sdk/client-dynamodb'
import { readNumber, readString, s } from './attrs.ts'
import type { StoreContext } from './context.ts'
import { SINGLE_SK } from './keys.ts'
import { seedServed } from './projection-served.ts'
import { statePk } from './projection-state.ts'
import { cursorOf, type SweepCursor, startOf } from './sweep.ts'

const SCAN_PAGE = 200
const MANIFEST_PREFIX = 'mf#'

/** Requests one manifest of a page may cost: the Query and the PutItem. */
export const SERVED_MANIFEST_COST = 2

export type MigrationPage = {
  /** Where the next page starts; absent once the Scan reached the end of the table. */
  next?: SweepCursor
  /** Items this page changed. */
  changed: number
}

async function hasCopyState(ctx: StoreContext, mailbox: string): Promise<boolean> {
  const out = await ctx.client.send(
    new QueryCommand({
      TableName: ctx.table,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': s(statePk(mailbox)) },
      ProjectionExpression: 'pk',
      Limit: 1,
      ConsistentRead: true,
    })
  )
  return (out.Items?.length ?? 0) > 0
}

/** One page of the migration, stopping early (resumable) when `room` says no. */
export async function servedMarksPage(
  ctx: StoreContext,
  cursor: SweepCursor | undefined,
  room: (cost: number) => boolean
): Promise<MigrationPage> {
  const out = await ctx.client.send(
    new ScanCommand({
      TableName: ctx.table,
      Limit: SCAN_PAGE,
      ExclusiveStartKey: startOf(cursor),
      FilterExpression: 'begins_with(pk, :mf) AND sk = :one',
      ProjectionExpression: 'pk, sk, ver',
      ExpressionAttributeValues: { ':mf': s(MANIFEST_PREFIX), ':one': s(SINGLE_SK) },
      ConsistentRead: true,
    })
  )
  let changed = 0
  let handled: SweepCursor | undefined = cursor
  for (const item of out.Items ?? []) {
    if (!room(SERVED_MANIFEST_COST)) return { ...(handled ? { next: handled } : {}), changed }
    const mailbox = readString(item, 'pk').slice(MANIFEST_PREFIX.length)
    if (await hasCopyState(ctx, mailbox))
      if (await seedServed(ctx, mailbox, readNumber(item, 'ver'))) changed++
    handled = cursorOf(item)
  }
  return { ...(out.LastEvaluatedKey ? { next: cursorOf(out.LastEvaluatedKey) } : {}), changed }
}
