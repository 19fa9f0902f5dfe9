/**
 * Deletes many items by key with BatchWriteItem, 25 at a time, resubmitting whatever DynamoDB
 * reports as unprocessed (with a short growing pause) until all are gone. Deleting an absent item
 * is not an error, so the whole operation is safe to repeat.
 */
import { BatchWriteItemCommand } from '@aws-sdk/client-dynamodb'
import { internalError } from '../errors.ts'
import type { Item } from './attrs.ts'
import type { StoreContext } from './context.ts'

const BATCH = 25
const MAX_ROUNDS = 8

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function deleteBatch(ctx: StoreContext, keys: Item[]): Promise<void> {
  let pending = keys.map((Key) => ({ DeleteRequest: { Key } }))
  for (let round = 0; pending.length > 0; round++) {
    if (round === MAX_ROUNDS) throw internalError('batch delete made no progress')
    if (round > 0) await pause(20 * 2 ** round)
    const out = await ctx.client.send(
      new BatchWriteItemCommand({ RequestItems: { [ctx.table]: pending } })
    )
    const left = out.UnprocessedItems?.[ctx.table] ?? []
    pending = left.flatMap((r) =>
      r.DeleteRequest?.Key ? [{ DeleteRequest: { Key: r.DeleteRequest.Key } }] : []
    )
  }
}

/** Deletes every item whose primary key is in `keys`. */
export async function deleteKeys(ctx: StoreContext, keys: Item[]): Promise<void> {
  const batches: Promise<void>[] = []
  for (let at = 0; at < keys.length; at += BATCH) {
    batches.push(deleteBatch(ctx, keys.slice(at, at + BATCH)))
  }
  await Promise.all(batches)
}
