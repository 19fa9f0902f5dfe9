/**
 * The readiness probe of the store: one eventually consistent GetItem of the resourceVersion
 * counter (a key that always exists once the hub is bootstrapped, and needs no permission the
 * Worker lacks), abandoned after `timeoutMs`. It resolves when DynamoDB answered and throws
 * otherwise (unreachable, throttled, refused credentials, the table missing, the timeout).
 */
import { GetItemCommand } from '@aws-sdk/client-dynamodb'
import { s } from './attrs.ts'
import type { StoreContext } from './context.ts'
import { META_PK, RV_SK } from './keys.ts'

export async function pingStore(ctx: StoreContext, timeoutMs: number): Promise<void> {
  const abort = new AbortController()
  const timer = setTimeout(() => abort.abort(), timeoutMs)
  try {
    await ctx.client.send(
      new GetItemCommand({
        TableName: ctx.table,
        Key: { pk: s(META_PK), sk: s(RV_SK) },
        ProjectionExpression: 'pk',
      }),
      { abortSignal: abort.signal }
    )
  } finally {
    clearTimeout(timer)
  }
}
