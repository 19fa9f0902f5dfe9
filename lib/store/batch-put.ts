/**
 * Puts many items with BatchWriteItem, 25 per call and the calls in parallel, resubmitting
 * whatever DynamoDB reports as unprocessed (with a short growing pause) until all have landed.
 * Unconditional puts of fixed content, so the whole operation is safe to repeat. Used for the
 * change-log entries of a manifest write.
 */
import { BatchWriteItemCommand } from '@aws-sdk/client-dynamodb'
import { internalError } from '../errors.ts'
import type { Item } from './attrs.ts'
import type { StoreContext } from './context.ts'

const BATCH = 25
const MAX_ROUNDS = 8

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function putBatch(ctx: StoreContext, items: Item[]): Promise<void> {
  let pending = items.map((Item) => ({ PutRequest: { Item } }))
  for (let round = 0; pending.length > 0; round++) {
    if (round === MAX_ROUNDS) throw internalError('batch put made no progress')
    if (round > 0) await pause(20 * 2 ** round)
    const out = await ctx.client.send(
      new BatchWriteItemCommand({ RequestItems: { [ctx.table]: pending } })
    )
    const left = out.UnprocessedItems?.[ctx.table] ?? []
    pending = left.flatMap((r) =>
      r.PutRequest?.Item ? [{ PutRequest: { Item: r.PutRequest.Item } }] : []
    )
  }
}

/** Puts every item of `items`. */
export async function putItems(ctx: StoreContext, items: Item[]): Promise<void> {
  const batches: Promise<void>[] = []
  for (let at = 0; at < items.length; at += BATCH) {
    batches.push(putBatch(ctx, items.slice(at, at + BATCH)))
  }
  await Promise.all(batches)
}
