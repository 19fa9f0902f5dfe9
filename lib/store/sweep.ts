/**
 * The change-log sweep (dynalite has no TTL; in production the `expiresAt` TTL is only a backstop).
 * It Scans the table page by page for log entries whose `ts` is older than the retention window
 * and, per page, FIRST raises the watermark (pk `meta`, sk `compacted`) to the highest rv it is
 * about to delete, THEN deletes them; so a reader that finds an entry missing also finds the
 * watermark past it. The same Scan collects blob chunk 0 items older than `BLOB_GRACE_MS`; after
 * the log pass, each such blob is deleted unless its owner head still points at it or its own or
 * its DELETED log entry is still there. Safe to run repeatedly and concurrently.
 *
 * Paged for the cron (docs/ARCHITECTURE.md, "Workers limits"): given a `cursor` (a key, from an
 * earlier result) the Scan resumes there, and a `room` check, asked before each page and each
 * blob, stops it early; the result's `cursor` is where the next call resumes (absent once the
 * Scan reached the end of the table), so successive calls cover the whole table. The same
 * table-wide order holds within a page: its log entries first, then its blobs, one by one, and a
 * page cut short resumes after the last item it handled.
 */
import { GetItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb'
import { badRequest } from '../errors.ts'
import { type Item, optNumber, optString, readNumber, readString, s } from './attrs.ts'
import { deleteKeys } from './batch-delete.ts'
import { BLOB_GRACE_MS, deleteBlob } from './blobs.ts'
import type { StoreContext } from './context.ts'
import { chunkSk, padRv } from './keys.ts'
import { raiseWatermark, readWatermark } from './meta-items.ts'

export type SweepOptions = {
  /** Keep entries younger than this; default: the store's logRetentionMs. */
  retentionMs?: number
  /** The current time in ms; default: the store's clock. */
  now?: number
  /** Stop after this many Scan pages (of up to 1 MB each); default: no bound. */
  maxPages?: number
  /** Where the Scan resumes (a result's `cursor`); default: the start of the table. */
  cursor?: SweepCursor
  /** Whether `cost` more requests fit; asked before each page and each blob. Default: always. */
  room?: (cost: number) => boolean
}

/** A position in the table's Scan order: the key of the last item handled. */
export type SweepCursor = { pk: string; sk: string }

export type SweepResult = {
  /** Change-log entries deleted. */
  deleted: number
  /** Unreferenced blobs (chunked bodies) deleted. */
  blobsDeleted: number
  /** The watermark after the sweep. */
  watermark: number
  /** False when `maxPages` or `room` stopped the Scan before the end of the table. */
  complete: boolean
  /** Where the next call resumes; absent when the Scan reached the end of the table. */
  cursor?: SweepCursor
}

const SCAN_PAGE = 1000
/** Requests a page may cost: the Scan, the watermark, up to 40 batch deletes. */
export const SWEEP_PAGE_COST = 45
/** Requests one blob check may cost: three reads and a delete of a few chunks. */
export const SWEEP_BLOB_COST = 6

/** The cursor at an item (a Scan page's item or its LastEvaluatedKey). */
export const cursorOf = (i: Item): SweepCursor => ({
  pk: readString(i, 'pk'),
  sk: readString(i, 'sk'),
})
/** A cursor as a Scan's ExclusiveStartKey. */
export const startOf = (c: SweepCursor | undefined): Item | undefined =>
  c ? { pk: s(c.pk), sk: s(c.sk) } : undefined

/** Where a page cut short before its item `at` resumes: after the item before (its start: none). */
export function cutBefore(items: Item[], at: number): { after: SweepCursor | undefined } {
  const before = items[at - 1]
  return { after: before ? cursorOf(before) : undefined }
}

async function itemExists(
  ctx: StoreContext,
  pk: string,
  sk: string,
  attr: string
): Promise<Item | undefined> {
  const out = await ctx.client.send(
    new GetItemCommand({
      TableName: ctx.table,
      Key: { pk: s(pk), sk: s(sk) },
      ConsistentRead: true,
      ProjectionExpression: 'pk, #a',
      ExpressionAttributeNames: { '#a': attr },
    })
  )
  return out.Item
}

/** Whether the blob whose chunk 0 is `chunk` is still referenced. */
async function blobInUse(ctx: StoreContext, chunk: Item, blobRv: number): Promise<boolean> {
  const opk = optString(chunk, 'opk')
  const osk = optString(chunk, 'osk')
  const lpk = optString(chunk, 'lpk')
  if (!opk || !osk || !lpk) return true
  const head = await itemExists(ctx, opk, osk, 'brv')
  if (head && optNumber(head, 'brv') === blobRv) return true
  if (await itemExists(ctx, lpk, padRv(blobRv), 'rv')) return true
  const dref = optNumber(chunk, 'dref')
  return dref !== undefined && (await itemExists(ctx, lpk, padRv(dref), 'rv')) !== undefined
}

async function collectBlob(ctx: StoreContext, chunk: Item): Promise<number> {
  const blobRv = Number(readString(chunk, 'pk').slice('blob#'.length))
  if (!Number.isSafeInteger(blobRv) || (await blobInUse(ctx, chunk, blobRv))) return 0
  await deleteBlob(ctx, { blobRv, chunks: readNumber(chunk, 'n') })
  return 1
}

/**
 * The blobs of one page, in Scan order, while there is room; returns how many were deleted and,
 * when cut short, the key after which the page's unhandled items start (undefined: its start).
 */
async function collectBlobs(
  ctx: StoreContext,
  items: Item[],
  room: (cost: number) => boolean
): Promise<{ deleted: number; cut?: { after: SweepCursor | undefined } }> {
  let deleted = 0
  for (const [at, item] of items.entries()) {
    if (!readString(item, 'pk').startsWith('blob#')) continue
    if (!room(SWEEP_BLOB_COST)) return { deleted, cut: cutBefore(items, at) }
    deleted += await collectBlob(ctx, item)
  }
  return { deleted }
}

async function deleteLogEntries(ctx: StoreContext, entries: Item[]): Promise<void> {
  if (entries.length === 0) return
  const highest = Math.max(...entries.map((e) => readNumber(e, 'rv')))
  await raiseWatermark(ctx, highest)
  await deleteKeys(
    ctx,
    entries.map((e) => ({ pk: s(readString(e, 'pk')), sk: s(readString(e, 'sk')) }))
  )
}

/** Deletes change-log entries older than the retention window and unreferenced blobs. */
export async function sweepChangeLog(
  ctx: StoreContext,
  opts: SweepOptions = {}
): Promise<SweepResult> {
  const now = opts.now ?? ctx.now()
  const retentionMs = opts.retentionMs ?? ctx.retentionMs
  if (!Number.isFinite(retentionMs) || retentionMs < 0) {
    throw badRequest(`invalid retention ${retentionMs}`)
  }
  const maxPages = opts.maxPages ?? Number.POSITIVE_INFINITY
  const room = opts.room ?? (() => true)
  let deleted = 0
  let blobsDeleted = 0
  let pages = 0
  let position = opts.cursor
  let ended = false
  while (pages < maxPages && room(SWEEP_PAGE_COST)) {
    const out = await ctx.client.send(
      new ScanCommand({
        TableName: ctx.table,
        Limit: SCAN_PAGE,
        ExclusiveStartKey: startOf(position),
        FilterExpression:
          '(begins_with(pk, :l) AND ts < :cut) OR (begins_with(pk, :b) AND sk = :zero AND ts < :bcut)',
        ProjectionExpression: 'pk, sk, rv, ts, opk, osk, lpk, dref, n',
        ExpressionAttributeValues: {
          ':l': s('l#'),
          ':b': s('blob#'),
          ':zero': s(chunkSk(0)),
          ':cut': { N: String(now - retentionMs) },
          ':bcut': { N: String(now - BLOB_GRACE_MS) },
        },
        ConsistentRead: true,
      })
    )
    pages++
    const items = out.Items ?? []
    const entries = items.filter((i) => readString(i, 'pk').startsWith('l#'))
    await deleteLogEntries(ctx, entries)
    deleted += entries.length
    const blobs = await collectBlobs(ctx, items, room)
    blobsDeleted += blobs.deleted
    if (blobs.cut) {
      position = blobs.cut.after ?? position
      break
    }
    if (!out.LastEvaluatedKey) {
      ended = true
      position = undefined
      break
    }
    position = cursorOf(out.LastEvaluatedKey)
  }
  return {
    deleted,
    blobsDeleted,
    watermark: await readWatermark(ctx),
    complete: ended,
    ...(position ? { cursor: position } : {}),
  }
}
