/**
 * The two counter items under pk `meta`: `rv`, the global resourceVersion counter (an atomic
 * `ADD`, so every write gets a fresh, increasing number; a failed or retried write just leaves a
 * gap), and `compacted`, the change-log watermark: the highest resourceVersion whose log entry may
 * have been swept. Asking for changes or a continued list from below it is 410 Expired.
 * Writers of one invocation asking at once share counter moves (invocation-batcher.ts): one ADD of
 * their sum, each taking its own range of it, in the order they asked.
 */
import { GetItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb'
import { internalError } from '../errors.ts'
import { isConditionalFailure, n, optNumber, s } from './attrs.ts'
import type { StoreContext } from './context.ts'
import { createBatcher } from './invocation-batcher.ts'
import { META_PK, RV_SK, WATERMARK_SK } from './keys.ts'
import { perObject } from './per-store.ts'

/**
 * Issues the next resourceVersion, or the next `count` of them at once: the counter moves by
 * `count` and the answer is the highest, so the caller owns `answer - count + 1 ... answer`.
 */
export function allocateRv(ctx: StoreContext, count = 1): Promise<number> {
  return rvBatcher(ctx)(count)
}

const rvBatcher = perObject((ctx: StoreContext) =>
  createBatcher((counts: number[]) => allocateRvs(ctx, counts))
)

/** One counter move for every count of `counts`: the highest rv of each one's range, in order. */
async function allocateRvs(ctx: StoreContext, counts: number[]): Promise<number[]> {
  let top = await moveCounter(
    ctx,
    counts.reduce((sum, c) => sum + c, 0)
  )
  const tops: number[] = []
  for (let i = counts.length - 1; i >= 0; i--) {
    tops[i] = top
    top -= counts[i] as number
  }
  return tops
}

async function moveCounter(ctx: StoreContext, count: number): Promise<number> {
  const out = await ctx.client.send(
    new UpdateItemCommand({
      TableName: ctx.table,
      Key: { pk: s(META_PK), sk: s(RV_SK) },
      UpdateExpression: 'ADD n :one',
      ExpressionAttributeValues: { ':one': n(count) },
      ReturnValues: 'UPDATED_NEW',
    })
  )
  const rv = optNumber(out.Attributes ?? {}, 'n')
  if (rv === undefined) throw internalError('the resourceVersion counter returned no value')
  return rv
}

async function readMeta(ctx: StoreContext, sk: string, attribute: string): Promise<number> {
  const out = await ctx.client.send(
    new GetItemCommand({
      TableName: ctx.table,
      Key: { pk: s(META_PK), sk: s(sk) },
      ConsistentRead: true,
    })
  )
  return optNumber(out.Item ?? {}, attribute) ?? 0
}

/** The latest resourceVersion issued (0 before the first write). */
export function readCurrentRv(ctx: StoreContext): Promise<number> {
  return readMeta(ctx, RV_SK, 'n')
}

/** The change-log watermark (0 before the first sweep). */
export function readWatermark(ctx: StoreContext): Promise<number> {
  return readMeta(ctx, WATERMARK_SK, 'rv')
}

/** Raises the watermark to `rv`; never lowers it. */
export async function raiseWatermark(ctx: StoreContext, rv: number): Promise<void> {
  try {
    await ctx.client.send(
      new UpdateItemCommand({
        TableName: ctx.table,
        Key: { pk: s(META_PK), sk: s(WATERMARK_SK) },
        UpdateExpression: 'SET rv = :rv',
        ConditionExpression: 'attribute_not_exists(rv) OR rv < :rv',
        ExpressionAttributeValues: { ':rv': n(rv) },
      })
    )
  } catch (e) {
    if (!isConditionalFailure(e)) throw e
  }
}
