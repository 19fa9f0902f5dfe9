/**
 * Removing projection bodies nothing needs any more. One Scan collects bodies whose `ts` (last
 * confirmed by a writer) is older than the store's log retention, and every hash referenced by a
 * manifest or by a projection change-log entry (so DELETED events can still be rendered). When the
 * Scan completed, each unreferenced old body is deleted with the condition that its `ts` is still
 * old: a writer that refreshed it meanwhile (projection-bodies.ts) keeps it, and one that writes it
 * after the delete puts it back. The store's own clock and retention are used, never the sweep's
 * overrides, because writers' body caches rely on them.
 */
import { DeleteItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb'
import { type Item, isConditionalFailure, n, optBytes, readString, s } from './attrs.ts'
import type { StoreContext } from './context.ts'
import { bodyPk, SINGLE_SK } from './keys.ts'
import { decodeChanges, decodeEntries } from './projection-codec.ts'

const SCAN_PAGE = 1000

async function referencedBy(item: Item): Promise<string[]> {
  const pk = readString(item, 'pk')
  const body = optBytes(item, 'body')
  if (pk.startsWith('mf#') && body) return (await decodeEntries(body)).map((e) => e.hash)
  const chg = optBytes(item, 'chg')
  return chg ? (await decodeChanges(chg)).map((c) => c.entry.hash) : []
}

async function deleteIfOld(ctx: StoreContext, hash: string, cut: number): Promise<number> {
  try {
    await ctx.client.send(
      new DeleteItemCommand({
        TableName: ctx.table,
        Key: { pk: s(bodyPk(hash)), sk: s(SINGLE_SK) },
        ConditionExpression: 'ts < :cut',
        ExpressionAttributeValues: { ':cut': n(cut) },
      })
    )
    return 1
  } catch (e) {
    if (!isConditionalFailure(e)) throw e
    return 0
  }
}

/** Deletes unreferenced bodies older than the retention; returns how many. */
export async function sweepBodies(ctx: StoreContext, maxPages = Number.POSITIVE_INFINITY) {
  const cut = ctx.now() - ctx.retentionMs
  const old: string[] = []
  const used = new Set<string>()
  let start: Item | undefined
  let pages = 0
  do {
    const out = await ctx.client.send(
      new ScanCommand({
        TableName: ctx.table,
        Limit: SCAN_PAGE,
        ExclusiveStartKey: start,
        FilterExpression:
          '(begins_with(pk, :pb) AND ts < :cut) OR begins_with(pk, :mf) OR attribute_exists(chg)',
        ProjectionExpression: 'pk, #b, chg',
        ExpressionAttributeNames: { '#b': 'body' },
        ExpressionAttributeValues: { ':pb': s('pb#'), ':mf': s('mf#'), ':cut': n(cut) },
        ConsistentRead: true,
      })
    )
    for (const item of out.Items ?? []) {
      const pk = readString(item, 'pk')
      if (pk.startsWith('pb#')) old.push(pk.slice('pb#'.length))
      else for (const hash of await referencedBy(item)) used.add(hash)
    }
    start = out.LastEvaluatedKey
    pages++
  } while (start && pages < maxPages)
  if (start) return 0
  const results = await Promise.all(
    old.filter((h) => !used.has(h)).map((h) => deleteIfOld(ctx, h, cut))
  )
  return results.reduce<number>((sum, x) => sum + x, 0)
}
