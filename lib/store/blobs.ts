/**
 * Chunked bodies ("blobs") for objects whose compressed JSON does not fit in one item. A blob is
 * named by the resourceVersion of the write that created it: pk `blob#<rv>`, sk the chunk index,
 * payload in `d`. Chunks are written BEFORE the head or log item that references them; chunk 0
 * also records its owner (head key, log partition) and, once the object is deleted, `dref`, the
 * rv of the DELETED log entry that still points at it. The sweep uses those to find blobs that
 * nothing references any more. A writer whose head write failed its condition deletes its chunks
 * at once; after any other failure the head may have landed, so the chunks stay and the sweep
 * removes them after `BLOB_GRACE_MS` if nothing references them.
 */

import { PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb'
import { b, type Item, isConditionalFailure, n, optBytes, s } from './attrs.ts'
import { deleteKeys } from './batch-delete.ts'
import { joinChunks, splitChunks } from './body-codec.ts'
import type { StoreContext } from './context.ts'
import { blobPk, chunkSk, logPkForHead } from './keys.ts'
import { queryAll } from './query-all.ts'

/** A writer must publish the head within this time after writing chunks, or give up. */
export const BLOB_WRITE_DEADLINE_MS = 60_000
/** The sweep leaves unreferenced chunks alone until they are this old. */
export const BLOB_GRACE_MS = 10 * 60_000

export type BlobRef = { blobRv: number; chunks: number }

/** Writes `data` as blob `rv`, owned by the head at `owner`. */
export async function writeBlob(
  ctx: StoreContext,
  rv: number,
  data: Uint8Array,
  owner: { pk: string; sk: string }
): Promise<BlobRef> {
  const chunks = splitChunks(data)
  const ts = ctx.now()
  const items = chunks.map((chunk, index): Item => {
    const item: Item = { pk: s(blobPk(rv)), sk: s(chunkSk(index)), d: b(chunk), ts: n(ts) }
    if (index === 0) {
      item.n = n(chunks.length)
      item.opk = s(owner.pk)
      item.osk = s(owner.sk)
      item.lpk = s(logPkForHead(owner.pk))
    }
    return item
  })
  try {
    await Promise.all(
      items.map((Item) => ctx.client.send(new PutItemCommand({ TableName: ctx.table, Item })))
    )
  } catch (e) {
    await deleteBlob(ctx, { blobRv: rv, chunks: chunks.length }).catch(() => undefined)
    throw e
  }
  return { blobRv: rv, chunks: chunks.length }
}

/** Reads a blob back; undefined when any chunk is missing. */
export async function readBlob(ctx: StoreContext, ref: BlobRef): Promise<Uint8Array | undefined> {
  const parts: Uint8Array[] = []
  const items = await queryAll(ctx, {
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': s(blobPk(ref.blobRv)) },
    ConsistentRead: true,
  })
  for (const item of items) {
    const d = optBytes(item, 'd')
    if (d) parts.push(d)
  }
  return parts.length === ref.chunks ? joinChunks(parts) : undefined
}

/** Deletes every chunk of a blob. */
export function deleteBlob(ctx: StoreContext, ref: BlobRef): Promise<void> {
  const keys: Item[] = []
  for (let i = 0; i < ref.chunks; i++) keys.push({ pk: s(blobPk(ref.blobRv)), sk: s(chunkSk(i)) })
  return deleteKeys(ctx, keys)
}

/** Records on the blob that the DELETED log entry `deleteRv` still references it. */
export async function markDeleteRef(
  ctx: StoreContext,
  blobRv: number,
  deleteRv: number
): Promise<void> {
  try {
    await ctx.client.send(
      new UpdateItemCommand({
        TableName: ctx.table,
        Key: { pk: s(blobPk(blobRv)), sk: s(chunkSk(0)) },
        UpdateExpression: 'SET dref = :d',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':d': n(deleteRv) },
      })
    )
  } catch (e) {
    if (!isConditionalFailure(e)) throw e
  }
}
