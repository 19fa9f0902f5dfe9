/**
 * changes(): the change log after `sinceRv`, oldest first, for one collection (partition
 * `l#<cluster>#<group>/<resource>`) or across spaces (index g1, `l#<group>/<resource>`), with the
 * namespace as a filter. Two rules keep a poller from skipping events:
 * - Settling. resourceVersions are issued before the write that uses them lands, so entry 6 can
 *   appear before entry 5. An entry is handed out only once `settleMs` has passed since its rv was
 *   issued (`ts`), and reading stops at the first unsettled entry; any write that finishes within
 *   `settleMs` of taking its rv is therefore seen in order. Slower writers may be missed (the
 *   level-based resync heals that).
 * - Expiry. The watermark is read AFTER the entries: the sweep raises it before deleting, so a
 *   `sinceRv` below it is 410 Expired ("too old resource version"), never a silent gap.
 * An entry whose big-object blob has vanished is skipped rather than wedging every watcher.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/client-dynamodb'
import { GSI_NAME } from '../../infra/table.ts'
import { badRequest, expired } from '../errors.ts'
import { type Item, readNumber, readString, s } from './attrs.ts'
import type { StoreContext } from './context.ts'
import { checkCollection, logGsiPk, logPk, padRv } from './keys.ts'
import { readWatermark } from './meta-items.ts'
import { itemObject } from './object-items.ts'
import type { ChangeEvent, ChangesOptions, ChangesResult, ChangeType } from './types.ts'

const PAGE = 500
const TYPES: readonly string[] = ['ADDED', 'MODIFIED', 'DELETED']

function logQuery(ctx: StoreContext, opts: ChangesOptions): QueryCommandInput {
  const values: Item = { ':since': s(padRv(opts.sinceRv)) }
  if (opts.namespace !== undefined) values[':ns'] = s(opts.namespace)
  const filter = opts.namespace === undefined ? {} : { FilterExpression: 'ns = :ns' }
  if (opts.cluster === '*') {
    values[':pk'] = s(logGsiPk(opts.group, opts.resource))
    return {
      TableName: ctx.table,
      IndexName: GSI_NAME,
      KeyConditionExpression: 'g1pk = :pk AND g1sk > :since',
      ExpressionAttributeValues: values,
      ...filter,
    }
  }
  values[':pk'] = s(logPk(opts.cluster, opts.group, opts.resource))
  return {
    TableName: ctx.table,
    KeyConditionExpression: 'pk = :pk AND sk > :since',
    ExpressionAttributeValues: values,
    ConsistentRead: true,
    ...filter,
  }
}

function checkOptions(opts: ChangesOptions): void {
  checkCollection(opts)
  if (!Number.isSafeInteger(opts.sinceRv) || opts.sinceRv < 0) {
    throw badRequest(`invalid resourceVersion ${opts.sinceRv}`)
  }
  if (opts.limit !== undefined && (!Number.isInteger(opts.limit) || opts.limit < 1)) {
    throw badRequest(`invalid limit ${opts.limit}`)
  }
}

/** Settled entries after sinceRv, up to limit; `more` when a further settled entry exists. */
async function readEntries(
  ctx: StoreContext,
  opts: ChangesOptions
): Promise<{ entries: Item[]; more: boolean }> {
  const horizon = ctx.now() - ctx.settleMs
  const query = logQuery(ctx, opts)
  const pageLimit =
    opts.limit === undefined || opts.namespace !== undefined ? PAGE : Math.min(PAGE, opts.limit + 1)
  const entries: Item[] = []
  let start: Item | undefined
  do {
    const out = await ctx.client.send(
      new QueryCommand({ ...query, Limit: pageLimit, ExclusiveStartKey: start })
    )
    for (const item of out.Items ?? []) {
      if (readNumber(item, 'ts') > horizon) return { entries, more: false }
      if (entries.length === opts.limit) return { entries, more: true }
      entries.push(item)
    }
    start = out.LastEvaluatedKey
  } while (start)
  return { entries, more: false }
}

async function toEvent(ctx: StoreContext, item: Item): Promise<ChangeEvent | undefined> {
  const type = readString(item, 'type')
  if (!TYPES.includes(type)) return undefined
  const object = await itemObject(ctx, item)
  if (!object) return undefined
  return {
    type: type as ChangeType,
    object,
    rv: readNumber(item, 'rv'),
    cluster: readString(item, 'cl'),
    namespace: readString(item, 'ns'),
  }
}

export async function readChanges(ctx: StoreContext, opts: ChangesOptions): Promise<ChangesResult> {
  checkOptions(opts)
  const { entries, more } = await readEntries(ctx, opts)
  const watermark = await readWatermark(ctx)
  if (opts.sinceRv < watermark) {
    throw expired(`too old resource version: ${opts.sinceRv} (${watermark})`)
  }
  const events = await Promise.all(entries.map((item) => toEvent(ctx, item)))
  return { events: events.filter((e) => e !== undefined), more }
}
