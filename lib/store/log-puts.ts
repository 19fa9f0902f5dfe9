/**
 * The change-log item of an object write (object-writes.ts), put until it lands: keyed by its rv,
 * so sending it again is harmless.
 */
import type { Item } from './attrs.ts'
import { putItems } from './batch-put.ts'
import type { StoreContext } from './context.ts'
import { createBatcher } from './invocation-batcher.ts'
import { putItem } from './object-items.ts'
import { perObject } from './per-store.ts'
import { sendUntilKnown } from './send-until-known.ts'

/**
 * Puts a change-log item (keyed by its rv, so sending it again is harmless) until it lands. The
 * items of writers of one invocation that log at once go in one BatchWriteItem
 * (invocation-batcher.ts); a lone item is one PutItem.
 */
export function putLog(ctx: StoreContext, item: Item): Promise<void> {
  return logBatcher(ctx)(item)
}

const logBatcher = perObject((ctx: StoreContext) =>
  createBatcher(async (items: Item[]) => {
    await sendUntilKnown(() =>
      items.length === 1 ? putItem(ctx, items[0] as Item) : putItems(ctx, items)
    )
    return items.map(() => undefined)
  })
)
