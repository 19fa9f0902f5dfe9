/**
 * Phase 1, the baseline: how fast the same dynalite serves plain PutItem and GetItem of ~1 KB
 * items through @aws-sdk/client-dynamodb, sequentially and with N concurrent workers. The hub's
 * figures are divided by these.
 */
import { type DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb'
import { type LoadResult, runLoad } from './load.ts'
import { rawItem } from './payload.ts'

export type RawResults = {
  putSequential: LoadResult
  putConcurrent: LoadResult
  getSequential: LoadResult
  getConcurrent: LoadResult
}

export type RawOptions = { ops: number; concurrency: number; itemBytes: number }

export async function runRawBaseline(
  client: DynamoDBClient,
  table: string,
  opts: RawOptions,
  progress: (message: string) => void
): Promise<RawResults> {
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
  const sequential = { count: opts.ops, concurrency: 1 }
  const concurrent = { count: opts.ops, concurrency: opts.concurrency }
  progress(`raw: PutItem x${opts.ops} sequential`)
  const putSequential = await runLoad(sequential, put('seq'))
  progress(`raw: PutItem x${opts.ops} with ${opts.concurrency} concurrent`)
  const putConcurrent = await runLoad(concurrent, put('conc'))
  progress(`raw: GetItem x${opts.ops} sequential`)
  const getSequential = await runLoad(sequential, get('seq'))
  progress(`raw: GetItem x${opts.ops} with ${opts.concurrency} concurrent`)
  const getConcurrent = await runLoad(concurrent, get('conc'))
  return { putSequential, putConcurrent, getSequential, getConcurrent }
}
