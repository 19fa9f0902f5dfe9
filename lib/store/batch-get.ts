/**
 * Reads many items by key with BatchGetItem: 100 keys per call, the calls in parallel, each read
 * consistently, asking again (after a short growing pause) for the keys DynamoDB reports as
 * unprocessed until every key was answered. Absent items are simply missing from the result, which
 * comes in no particular order. The one implementation behind every multi-key read of the store
 * (bodies, copy states, manifests, key-value entries).
 */
import { BatchGetItemCommand } from '@aws-sdk/client-dynamodb'
import { internalError } from '../errors.ts'
import type { Item } from './attrs.ts'
import type { StoreContext } from './context.ts'

/** Keys per BatchGetItem call, DynamoDB's limit. */
export const GET_BATCH = 100
const MAX_ROUNDS = 8

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function getBatch(ctx: StoreContext, keys: Item[], projection?: string): Promise<Item[]> {
  const found: Item[] = []
  let pending = keys
  for (let round = 0; pending.length > 0; round++) {
    if (round === MAX_ROUNDS) throw internalError('batch get made no progress')
    if (round > 0) await pause(20 * 2 ** round)
    const out = await ctx.client.send(
      new BatchGetItemCommand({
        RequestItems: {
          [ctx.table]: {
            Keys: pending,
            ConsistentRead: true,
            ...(projection ? { ProjectionExpression: projection } : {}),
          },
        },
      })
    )
    found.push(...(out.Responses?.[ctx.table] ?? []))
    pending = out.UnprocessedKeys?.[ctx.table]?.Keys ?? []
  }
  return found
}

/**
 * The stored items of `keys` (each key at most once: the caller removes duplicates); only the
 * attributes `projection` names (a ProjectionExpression) when given.
 */
export async function getItems(
  ctx: StoreContext,
  keys: readonly Item[],
  projection?: string
): Promise<Item[]> {
  const batches: Promise<Item[]>[] = []
  for (let at = 0; at < keys.length; at += GET_BATCH) {
    batches.push(getBatch(ctx, keys.slice(at, at + GET_BATCH), projection))
  }
  return (await Promise.all(batches)).flat()
}
