/**
 * Every item of one Query, page after page (DynamoDB answers at most 1 MB per call): the one
 * paging loop behind the store's reads of a whole partition or prefix (blob chunks, a mailbox's
 * copy states, the metric totals, a shared manifest's members and its change-log partition).
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/client-dynamodb'
import type { Item } from './attrs.ts'
import type { StoreContext } from './context.ts'

/** The items `input` (without TableName) selects, in key order; one request per page. */
export async function queryAll(
  ctx: StoreContext,
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>
): Promise<Item[]> {
  const items: Item[] = []
  let start: Item | undefined
  do {
    const out = await ctx.client.send(
      new QueryCommand({ ...input, TableName: ctx.table, ExclusiveStartKey: start })
    )
    items.push(...(out.Items ?? []))
    start = out.LastEvaluatedKey
  } while (start)
  return items
}
