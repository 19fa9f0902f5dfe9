/**
 * Served marks: per mailbox, the highest manifest version the desired-state endpoint has answered
 * its agent with (pk `sv#<mailbox>`, sk `-`, `ver`, `ts`). The deletion lifecycle asks whether an
 * edge may hold a copy (lib/deletion/tombstones.ts): a copy first added at a manifest version
 * above the mark never reached the edge, nor did anything of a mailbox without a mark. A mark only
 * grows: the write is conditional on the stored one being lower, and losing that race to a higher
 * mark is success. Tables written before marks existed (format 1, format.ts) get theirs from the
 * migration (migrate-served-marks.ts); until it is done a missing mark means "unknown", and the
 * deletion lifecycle keeps every tombstone as it did before.
 */
import {
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb'
import { type Item, isConditionalFailure, n, optNumber, s } from './attrs.ts'
import type { StoreContext } from './context.ts'
import { SINGLE_SK } from './keys.ts'
import { checkMailbox } from './projection-manifest.ts'

const SERVED_PK_PREFIX = 'sv#'

const servedKey = (mailbox: string): Item => ({
  pk: s(`${SERVED_PK_PREFIX}${mailbox}`),
  sk: s(SINGLE_SK),
})

/** Raises the mailbox's mark to `version` (never lowers it). One UpdateItem. */
export async function markServed(
  ctx: StoreContext,
  mailbox: string,
  version: number
): Promise<void> {
  checkMailbox(mailbox)
  try {
    await ctx.client.send(
      new UpdateItemCommand({
        TableName: ctx.table,
        Key: servedKey(mailbox),
        UpdateExpression: 'SET ver = :v, ts = :ts',
        ConditionExpression: 'attribute_not_exists(ver) OR ver < :v',
        ExpressionAttributeValues: { ':v': n(version), ':ts': n(ctx.now()) },
      })
    )
  } catch (e) {
    if (!isConditionalFailure(e)) throw e
  }
}

/**
 * Sets a mark only where none is stored (the migration's guess never overrides a real one).
 * Returns whether it wrote.
 */
export async function seedServed(
  ctx: StoreContext,
  mailbox: string,
  version: number
): Promise<boolean> {
  checkMailbox(mailbox)
  try {
    await ctx.client.send(
      new PutItemCommand({
        TableName: ctx.table,
        Item: { ...servedKey(mailbox), ver: n(version), ts: n(ctx.now()) },
        ConditionExpression: 'attribute_not_exists(pk)',
      })
    )
    return true
  } catch (e) {
    if (!isConditionalFailure(e)) throw e
    return false
  }
}

/** The stored mark (undefined: none). One consistent GetItem. */
export async function readServed(ctx: StoreContext, mailbox: string): Promise<number | undefined> {
  checkMailbox(mailbox)
  const out = await ctx.client.send(
    new GetItemCommand({ TableName: ctx.table, Key: servedKey(mailbox), ConsistentRead: true })
  )
  return out.Item ? optNumber(out.Item, 'ver') : undefined
}

/** Removes the mark (the mailbox went away). No-op if absent. */
export async function deleteServed(ctx: StoreContext, mailbox: string): Promise<void> {
  checkMailbox(mailbox)
  await ctx.client.send(new DeleteItemCommand({ TableName: ctx.table, Key: servedKey(mailbox) }))
}
