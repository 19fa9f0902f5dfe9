/**
 * Object heads and change-log entries as DynamoDB items. A head (pk `o#…`, sk `<ns>/<name>`)
 * carries `rv`, `ts` (when that rv was issued), `cl` (cluster), `ns`, the g1 index keys, and the
 * body: inline gzip in `body`, or a blob reference `brv` + `bn`. A log entry (pk `l#…`, sk the
 * padded rv) carries `type`, `rv`, `ts`, `cl`, `ns`, the same body attributes as the head it was
 * made from (so a big object's entry points at the blob instead of copying it), the g1 keys of the
 * cross-space feed, and `expiresAt` for the production TTL.
 */
import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb'
import { internalError } from '../errors.ts'
import type { KubeObject } from '../kube/types.ts'
import { b, type Item, n, optBytes, optNumber, readNumber, readString, s } from './attrs.ts'
import { type BlobRef, readBlob, writeBlob } from './blobs.ts'
import { bodyText, INLINE_LIMIT, parseBody } from './body-codec.ts'
import { type StoreContext, TTL_SLACK_MS } from './context.ts'
import { headKey, logPkForHead, objectGsiPk, objectGsiSk, padRv } from './keys.ts'
import type { ChangeType, ObjectKey } from './types.ts'

export type StoredBody = { inline: Uint8Array } | { blob: BlobRef }

/** Stores compressed bytes inline or, when too big, as a blob written now. */
export async function storeBody(
  ctx: StoreContext,
  rv: number,
  data: Uint8Array,
  key: ObjectKey
): Promise<StoredBody> {
  if (data.length <= INLINE_LIMIT) return { inline: data }
  return { blob: await writeBlob(ctx, rv, data, headKey(key)) }
}

function bodyAttrs(body: StoredBody): Item {
  if ('inline' in body) return { body: b(body.inline) }
  return { brv: n(body.blob.blobRv), bn: n(body.blob.chunks) }
}

/** The blob an item references, if any. */
export function blobOf(item: Item): BlobRef | undefined {
  const blobRv = optNumber(item, 'brv')
  if (blobRv === undefined) return undefined
  return { blobRv, chunks: readNumber(item, 'bn') }
}

export function headItem(key: ObjectKey, rv: number, ts: number, body: StoredBody): Item {
  const { pk, sk } = headKey(key)
  return {
    pk: s(pk),
    sk: s(sk),
    rv: n(rv),
    ts: n(ts),
    cl: s(key.cluster),
    ns: s(key.namespace),
    g1pk: s(objectGsiPk(key.group, key.resource)),
    g1sk: s(objectGsiSk(key)),
    ...bodyAttrs(body),
  }
}

/** The log entry recording that `head` was written (or, for DELETED, removed at `rv`). */
export function logItemFor(
  ctx: StoreContext,
  head: Item,
  change: { type: ChangeType; rv: number; ts: number; landed: number }
): Item {
  const item: Item = {
    lt: n(change.landed),
    pk: s(logPkForHead(readString(head, 'pk'))),
    sk: s(padRv(change.rv)),
    type: s(change.type),
    rv: n(change.rv),
    ts: n(change.ts),
    cl: s(readString(head, 'cl')),
    ns: s(readString(head, 'ns')),
    g1pk: s(`l#${readString(head, 'g1pk').slice(2)}`),
    g1sk: s(padRv(change.rv)),
    expiresAt: n(Math.ceil((change.ts + ctx.retentionMs + TTL_SLACK_MS) / 1000)),
  }
  const inline = optBytes(head, 'body')
  if (inline) item.body = b(inline)
  const blob = blobOf(head)
  if (blob) Object.assign(item, { brv: n(blob.blobRv), bn: n(blob.chunks) })
  return item
}

export async function putItem(ctx: StoreContext, item: Item): Promise<void> {
  await ctx.client.send(new PutItemCommand({ TableName: ctx.table, Item: item }))
}

/** The head at `key`, read consistently; undefined when absent. */
export async function getHead(ctx: StoreContext, key: ObjectKey): Promise<Item | undefined> {
  const { pk, sk } = headKey(key)
  const out = await ctx.client.send(
    new GetItemCommand({
      TableName: ctx.table,
      Key: { pk: s(pk), sk: s(sk) },
      ConsistentRead: true,
    })
  )
  return out.Item
}

/** The JSON text stored in a head or log item; undefined when its blob is gone. */
export async function itemText(ctx: StoreContext, item: Item): Promise<string | undefined> {
  const inline = optBytes(item, 'body')
  if (inline) return bodyText(inline)
  const blob = blobOf(item)
  if (!blob) throw internalError('stored item has no body')
  const data = await readBlob(ctx, blob)
  return data && bodyText(data)
}

/** The object stored in an item, with the item's resourceVersion; undefined when its blob is gone. */
export async function itemObject(ctx: StoreContext, item: Item): Promise<KubeObject | undefined> {
  const text = await itemText(ctx, item)
  return text === undefined ? undefined : parseBody(text, readNumber(item, 'rv'))
}

/** Like itemObject, for heads: a head whose blob is gone is an internal error. */
export async function headObject(ctx: StoreContext, item: Item): Promise<KubeObject> {
  const obj = await itemObject(ctx, item)
  if (!obj) throw internalError(`stored object ${readString(item, 'sk')} lost its body chunks`)
  return obj
}
