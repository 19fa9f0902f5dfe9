/**
 * get, getMany and list. get is one consistent GetItem; getMany reads many heads with
 * BatchGetItem (batch-get.ts: 100 keys a call, consistently). list reads the counter first (that value is the
 * list's resourceVersion), then Queries the collection's partition (one cluster; `begins_with` on
 * `<namespace>/` for one namespace) or, for `cluster: '*'`, the g1 index (namespace as a filter),
 * in key order. The predicate is applied while paging so `limit` counts matching objects; when a
 * page stops early the `continue` token carries the list rv and the last key. A continued list
 * keeps the first page's rv, and one whose rv is below the change-log watermark is 410 Expired,
 * as kube does after compaction. Pages after the first are read live, not from a snapshot.
 * With `watchable`, the first page's resourceVersion is one a watch can resume from without
 * missing a write that was in flight during the list (list-marks.ts).
 * A key or namespace too long to be stored (key-size.ts) names nothing: get answers absent and list
 * empty without a request; a continue token naming a key outside its list is 400.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/client-dynamodb'
import { badRequest, expired } from '../errors.ts'
import type { KubeObject } from '../kube/types.ts'
import { type Item, readString, s } from './attrs.ts'
import { getItems } from './batch-get.ts'
import type { StoreContext } from './context.ts'
import { type ContinueToken, decodeContinue, encodeContinue } from './continue-token.ts'
import { keyFits, namespaceFits, objectKeyFits } from './key-size.ts'
import { checkCollection, checkObjectKey, headKey, objectGsiPk, objectPk } from './keys.ts'
import { putListMark } from './list-marks.ts'
import { readCurrentRv, readWatermark } from './meta-items.ts'
import { getHead, headObject } from './object-items.ts'
import { GSI_NAME } from './table.ts'
import type { ListOptions, ListResult, ObjectKey } from './types.ts'

const PAGE = 500

const EXPIRED_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.'

export async function getObject(
  ctx: StoreContext,
  key: ObjectKey
): Promise<KubeObject | undefined> {
  checkObjectKey(key)
  if (!objectKeyFits(key)) return undefined
  const head = await getHead(ctx, key)
  return head && headObject(ctx, head)
}

/** The objects at `keys`, in their order (undefined where absent); repeated keys are read once. */
export async function getObjects(
  ctx: StoreContext,
  keys: readonly ObjectKey[]
): Promise<(KubeObject | undefined)[]> {
  for (const key of keys) checkObjectKey(key)
  const ids = keys.map((key) => {
    const { pk, sk } = headKey(key)
    return { pk, sk, id: `${pk}\n${sk}` }
  })
  const wanted = new Map<string, Item>()
  ids.forEach(({ pk, sk, id }, i) => {
    if (objectKeyFits(keys[i] as ObjectKey)) wanted.set(id, { pk: s(pk), sk: s(sk) })
  })
  const items = await getItems(ctx, [...wanted.values()])
  const found = new Map<string, Promise<KubeObject>>()
  for (const item of items)
    found.set(`${readString(item, 'pk')}\n${readString(item, 'sk')}`, headObject(ctx, item))
  return Promise.all(ids.map(({ id }) => found.get(id)))
}

/** The Query for one collection, without paging. */
function baseQuery(ctx: StoreContext, opts: ListOptions): QueryCommandInput {
  if (opts.cluster === '*') {
    const values: Item = { ':pk': s(objectGsiPk(opts.group, opts.resource)) }
    if (opts.namespace !== undefined) values[':ns'] = s(opts.namespace)
    return {
      TableName: ctx.table,
      IndexName: GSI_NAME,
      KeyConditionExpression: 'g1pk = :pk',
      ...(opts.namespace === undefined ? {} : { FilterExpression: 'ns = :ns' }),
      ExpressionAttributeValues: values,
    }
  }
  const pk = objectPk(opts.cluster, opts.group, opts.resource)
  if (opts.namespace === undefined) {
    return {
      TableName: ctx.table,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': s(pk) },
      ConsistentRead: true,
    }
  }
  return {
    TableName: ctx.table,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': s(pk), ':prefix': s(`${opts.namespace}/`) },
    ConsistentRead: true,
  }
}

/** Identifies the collection a continue token belongs to. */
function scopeOf(opts: ListOptions): string {
  return JSON.stringify([opts.cluster, opts.group, opts.resource, opts.namespace ?? null])
}

function tokenFor(opts: ListOptions, rv: number, item: Item): string {
  const token: ContinueToken = {
    v: 1,
    rv,
    q: scopeOf(opts),
    pk: readString(item, 'pk'),
    sk: readString(item, 'sk'),
  }
  if (opts.cluster === '*') {
    token.gpk = readString(item, 'g1pk')
    token.gsk = readString(item, 'g1sk')
  }
  return encodeContinue(token)
}

const INVALID_FOR_LIST = 'continue key is not valid for this list'

/**
 * The ExclusiveStartKey a token stands for; BadRequest when it belongs to another list, or names a
 * key outside the collection's partition (and namespace) or longer than any stored key.
 */
function startKey(token: ContinueToken, opts: ListOptions): Item {
  if (token.q !== scopeOf(opts)) throw badRequest(INVALID_FOR_LIST)
  if (!keyFits(token.pk, token.sk)) throw badRequest(INVALID_FOR_LIST)
  const key: Item = { pk: s(token.pk), sk: s(token.sk) }
  if (opts.cluster !== '*') {
    const inNamespace = opts.namespace === undefined || token.sk.startsWith(`${opts.namespace}/`)
    if (token.pk !== objectPk(opts.cluster, opts.group, opts.resource) || !inNamespace)
      throw badRequest(INVALID_FOR_LIST)
    return key
  }
  const { gpk, gsk } = token
  if (gpk !== objectGsiPk(opts.group, opts.resource) || !gsk || !keyFits(gpk, gsk))
    throw badRequest(INVALID_FOR_LIST)
  return { ...key, g1pk: s(gpk), g1sk: s(gsk) }
}

async function listRv(ctx: StoreContext, token: ContinueToken | undefined): Promise<number> {
  if (!token) return readCurrentRv(ctx)
  const watermark = await readWatermark(ctx)
  if (token.rv < watermark) throw expired(EXPIRED_CONTINUE)
  return token.rv
}

function checkLimit(limit: number | undefined): number | undefined {
  if (limit === undefined || limit === 0) return undefined
  if (!Number.isInteger(limit) || limit < 0) throw badRequest(`invalid limit ${limit}`)
  return limit
}

type Page = { items: Item[]; objects: KubeObject[]; lastEvaluated: Item | undefined }

/**
 * Takes matching objects from a page into `items` until `limit`; returns the item it stopped at
 * and whether anything follows it, or undefined when the page was used up.
 */
function takeMatching(
  page: Page,
  items: KubeObject[],
  opts: { limit: number | undefined; predicate: ListOptions['predicate'] }
): { last: Item; more: boolean } | undefined {
  for (const [i, item] of page.items.entries()) {
    const obj = page.objects[i]!
    if (opts.predicate && !opts.predicate(obj)) continue
    items.push(obj)
    if (items.length === opts.limit) {
      return { last: item, more: i < page.items.length - 1 || page.lastEvaluated !== undefined }
    }
  }
  return undefined
}

export async function listObjects(ctx: StoreContext, opts: ListOptions): Promise<ListResult> {
  checkCollection(opts)
  const limit = checkLimit(opts.limit)
  const token = opts.continue ? decodeContinue(opts.continue) : undefined
  let start = token && startKey(token, opts)
  const t0 = ctx.now()
  const versionless = opts.itemsOnly && !token && !opts.watchable && limit === undefined
  const rv = versionless ? 0 : await listRv(ctx, token)
  const resourceVersion = versionless ? '' : String(rv)
  // A watchable list marks its rv while the objects are read; a continued list keeps the first
  // page's (in its token).
  const marked = opts.watchable && !token ? putListMark(ctx, opts, { rv, t0 }) : Promise.resolve()
  // Awaited below; a failed query must not leave its rejection unhandled.
  marked.catch(() => undefined)
  const items: KubeObject[] = []
  // No object is stored under a namespace too long for a key: nothing to query.
  if (opts.namespace !== undefined && !namespaceFits(opts.namespace))
    return { items, resourceVersion: await marked.then(() => resourceVersion) }
  const query = baseQuery(ctx, opts)
  for (;;) {
    const pageLimit =
      limit === undefined || opts.predicate ? PAGE : Math.min(PAGE, limit - items.length + 1)
    const out = await ctx.client.send(
      new QueryCommand({ ...query, Limit: pageLimit, ExclusiveStartKey: start })
    )
    const pageItems = out.Items ?? []
    const objects = await Promise.all(pageItems.map((item) => headObject(ctx, item)))
    const page = { items: pageItems, objects, lastEvaluated: out.LastEvaluatedKey }
    const stop = takeMatching(page, items, { limit, predicate: opts.predicate })
    start = out.LastEvaluatedKey
    if (stop || !start) {
      await marked
      if (stop?.more) return { items, resourceVersion, continue: tokenFor(opts, rv, stop.last) }
      return { items, resourceVersion }
    }
  }
}
