/**
 * Lists a watch can resume from. A list reads the counter (C) and then the objects; a write that
 * had its rv at or below C but whose object had not landed when the list read it would be in
 * neither the list nor a watch that hands out only what comes after C (kube's store commits in rv
 * order and has no such gap; here an rv is issued before the write that uses it lands). So a
 * `watchable` list leaves a mark in the collection's change log right after C (sk `<C>#list`,
 * type LIST, `ts` the time just before it read the counter: t0), and every log entry records
 * `lt`, the writer's time once its object (or manifest, or copy state) had landed. A watch from C
 * finds the mark and also hands out the entries at or below C that landed at or after t0 (the
 * writes the list may have missed), read from the latest entry issued `settleMs` before t0: a write
 * issued earlier had landed before t0, or landed late and was announced again above C
 * (late-entries.ts). An entry that landed just as the list read it can come twice (its writer's
 * `lt` is after t0); none is lost, as long as the writers' clocks and the list's agree to within
 * the time a write takes to land after a list began (a table round trip or two; the settle window
 * makes the same kind of assumption, with far more room). Readers of the log skip marks
 * (change-log.ts hands out only ADDED, MODIFIED and DELETED); the sweep removes them with the
 * other entries. */
import {
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/client-dynamodb'
import { type Item, isConditionalFailure, n, optString, readNumber, s } from './attrs.ts'
import { type StoreContext, TTL_SLACK_MS } from './context.ts'
import { logGsiPk, logPk, padRv } from './keys.ts'
import { readWatermark } from './meta-items.ts'
import { GSI_NAME } from './table.ts'
import type { CollectionRef, ResumePoint } from './types.ts'

const MARK_TYPE = 'LIST'
const PAGE = 50
/** Pages read before falling back to the watermark (a collection changing this fast is rare). */
const MAX_PAGES = 4

/** The partition of a collection's log; a list across spaces marks `l#*#<group/resource>`. */
const markPk = (c: CollectionRef) => logPk(c.cluster, c.group, c.resource)
/** Right after the entry at `rv` (if any) and before the next: `<padded rv>#list`. */
const markSk = (rv: number) => `${padRv(rv)}#list`

/**
 * Puts the mark of a list of `c` that read `rv` at `t0`, unless a list at the same rv marked it
 * first: the earliest start is kept, so a watch from that rv hands out everything any of those
 * lists can have missed.
 */
export async function putListMark(
  ctx: StoreContext,
  c: CollectionRef,
  at: { rv: number; t0: number }
): Promise<void> {
  try {
    await ctx.client.send(
      new PutItemCommand({
        TableName: ctx.table,
        Item: {
          pk: s(markPk(c)),
          sk: s(markSk(at.rv)),
          type: s(MARK_TYPE),
          rv: n(at.rv),
          ts: n(at.t0),
          expiresAt: n(Math.ceil((at.t0 + ctx.retentionMs + TTL_SLACK_MS) / 1000)),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      })
    )
  } catch (e) {
    if (!isConditionalFailure(e)) throw e
  }
}

/** The collection's log at or below `upTo`, newest first, only entries issued by `horizon`. */
function newestFirst(
  ctx: StoreContext,
  c: CollectionRef,
  upTo: number,
  horizon: number
): QueryCommandInput {
  const values: Item = { ':upTo': s(padRv(upTo)), ':h': n(horizon) }
  const common = {
    TableName: ctx.table,
    FilterExpression: 'ts <= :h',
    ExpressionAttributeValues: values,
    ScanIndexForward: false,
  }
  if (c.cluster === '*') {
    values[':pk'] = s(logGsiPk(c.group, c.resource))
    return {
      ...common,
      IndexName: GSI_NAME,
      KeyConditionExpression: 'g1pk = :pk AND g1sk <= :upTo',
    }
  }
  values[':pk'] = s(logPk(c.cluster, c.group, c.resource))
  return { ...common, KeyConditionExpression: 'pk = :pk AND sk <= :upTo', ConsistentRead: true }
}

/** The latest rv of the collection's log issued at or before `horizon`, if one is within reach. */
async function settledBefore(
  ctx: StoreContext,
  c: CollectionRef,
  upTo: number,
  horizon: number
): Promise<number | undefined> {
  const query = newestFirst(ctx, c, upTo, horizon)
  let start: Item | undefined
  for (let page = 0; page < MAX_PAGES; page++) {
    const out = await ctx.client.send(
      new QueryCommand({ ...query, Limit: PAGE, ExclusiveStartKey: start })
    )
    const [found] = out.Items ?? []
    if (found) return readNumber(found, 'rv')
    start = out.LastEvaluatedKey
    if (!start) return undefined
  }
  return undefined
}

/**
 * Where a watch from `rv` resumes when `rv` is a watchable list's: the rv to read the log after,
 * and the time after which an entry at or below `rv` must have landed to be handed out. Undefined
 * when `rv` is not a list's mark in this collection (the watch starts after `rv` as usual).
 */
export async function resumePoint(
  ctx: StoreContext,
  c: CollectionRef,
  rv: number
): Promise<ResumePoint | undefined> {
  const out = await ctx.client.send(
    new GetItemCommand({
      TableName: ctx.table,
      Key: { pk: s(markPk(c)), sk: s(markSk(rv)) },
      ConsistentRead: true,
    })
  )
  if (!out.Item || optString(out.Item, 'type') !== MARK_TYPE) return undefined
  const t0 = readNumber(out.Item, 'ts')
  const [settled, watermark] = await Promise.all([
    settledBefore(ctx, c, rv, t0 - ctx.settleMs),
    readWatermark(ctx),
  ])
  // Nothing that old and nothing swept: the collection's whole log is that recent and is read.
  return { sinceRv: Math.min(rv, Math.max(settled ?? 0, watermark)), upTo: rv, landedAfter: t0 }
}
