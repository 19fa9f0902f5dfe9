/**
 * Phase 1, the baseline: how fast the same dynalite serves plain requests of ~1 KB items through
 * @aws-sdk/client-dynamodb, sequentially and with N concurrent workers: PutItem, GetItem, and a
 * Query of one partition holding as many items as the hub's listed namespace (all of them, and a
 * first page of the list limit). The hub's figures are divided by these.
 */
import {
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
} from '@aws-sdk/client-dynamodb'
import { type LoadResult, runLoad } from './load.ts'
import { rawItem } from './payload.ts'

export type RawResults = {
  putSequential: LoadResult
  putConcurrent: LoadResult
  getSequential: LoadResult
  getConcurrent: LoadResult
  queryAllSequential: LoadResult
  queryAllConcurrent: LoadResult
  queryLimitSequential: LoadResult
  queryLimitConcurrent: LoadResult
}

export type RawOptions = {
  ops: number
  concurrency: number
  itemBytes: number
  /** Items in the queried partition (the hub's `objects`). */
  listItems: number
  listOps: number
  listLimit: number
}

/** Runs the PutItem, GetItem and Query loads on `table` (phase 1). */
export async function runRawBaseline(
  client: DynamoDBClient,
  table: string,
  opts: RawOptions,
  progress: (message: string) => void
): Promise<RawResults> {
  const { ops, concurrency } = opts
  const put = (prefix: string) => (i: number) =>
    client.send(
      new PutItemCommand({
        TableName: table,
        Item: rawItem(`raw#${prefix}`, `item-${i}`, opts.itemBytes),
      })
    )
  const get = (prefix: string) => async (i: number) => {
    const out = await client.send(
      new GetItemCommand({
        TableName: table,
        Key: { pk: { S: `raw#${prefix}` }, sk: { S: `item-${i}` } },
        ConsistentRead: true,
      })
    )
    if (!out.Item) throw new Error(`raw item ${prefix}/${i} is missing`)
  }
  const query = (limit: number) => async () => {
    const out = await client.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': { S: 'raw#list' } },
        ConsistentRead: true,
        Limit: limit,
      })
    )
    if (out.Items?.length !== limit) throw new Error(`raw Query returned ${out.Items?.length}`)
  }
  const seq = (count: number) => ({ count, concurrency: 1 })
  const conc = (count: number) => ({ count, concurrency })
  progress(`raw: PutItem x${ops} sequential`)
  const putSequential = await runLoad(seq(ops), put('seq'))
  progress(`raw: PutItem x${ops} with ${concurrency} concurrent`)
  const putConcurrent = await runLoad(conc(ops), put('conc'))
  progress(`raw: GetItem x${ops} sequential`)
  const getSequential = await runLoad(seq(ops), get('seq'))
  progress(`raw: GetItem x${ops} with ${concurrency} concurrent`)
  const getConcurrent = await runLoad(conc(ops), get('conc'))
  await runLoad(conc(opts.listItems), put('list'))
  const all = query(opts.listItems)
  const page = query(Math.min(opts.listLimit, opts.listItems))
  const pages = opts.listOps * 5
  progress(`raw: Query of ${opts.listItems} items x${opts.listOps} sequential and concurrent`)
  const queryAllSequential = await runLoad(seq(opts.listOps), all)
  const queryAllConcurrent = await runLoad(conc(opts.listOps), all)
  progress(`raw: Query Limit=${opts.listLimit} x${pages} sequential and concurrent`)
  const queryLimitSequential = await runLoad(seq(pages), page)
  const queryLimitConcurrent = await runLoad(conc(pages), page)
  return {
    putSequential,
    putConcurrent,
    getSequential,
    getConcurrent,
    queryAllSequential,
    queryAllConcurrent,
    queryLimitSequential,
    queryLimitConcurrent,
  }
}
