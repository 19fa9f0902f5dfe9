/**
 * The stored layout's format version, so that a release serves what the one before wrote: one item,
 * pk `meta`, sk `format`, with `v` (the format the table's items follow) and, while a migration to
 * the next format runs, `to` and `cur` (where its Scan resumes, as JSON). A table without the item
 * is format 1: everything written before formats were recorded. Formats:
 *
 * 1. The layout up to served marks.
 * 2. Served marks (projection-served.ts): every mailbox whose agent was served a manifest has one,
 *    and manifest entries record the version that first added them (`added`).
 * 3. Shared manifests (shared-manifest.ts): items `sm#<id>`, their log partitions, and the
 *    membership attributes `shr` and `mbr` of member manifests. Nothing of format 2 changes
 *    meaning (a manifest without membership holds its own entries, as before), so the migration
 *    only records the format; manifest writes share only once the table is at format 3.
 *
 * format-migrations.ts takes a table from each format to the next in bounded, resumable steps;
 * readers that depend on a format ask `isCurrent()`, cached once true (formats never go back).
 */
import {
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb'
import { type Item, isConditionalFailure, n, optNumber, optString, s } from './attrs.ts'
import type { StoreContext } from './context.ts'
import { META_PK } from './keys.ts'
import type { SweepCursor } from './sweep.ts'

/** The format this release writes and reads. */
export const FORMAT_CURRENT = 3
/** The format of a table that has no format item. */
export const FORMAT_UNRECORDED = 1

const FORMAT_KEY: Item = { pk: s(META_PK), sk: s('format') }

export type FormatRecord = {
  /** The format the table's items follow. */
  format: number
  /** While a migration runs: where its Scan resumes (absent: at the start). */
  cursor?: SweepCursor
}

/** The table's format record (one consistent GetItem). */
export async function readFormat(ctx: StoreContext): Promise<FormatRecord> {
  const out = await ctx.client.send(
    new GetItemCommand({ TableName: ctx.table, Key: FORMAT_KEY, ConsistentRead: true })
  )
  const item = out.Item ?? {}
  const cur = optString(item, 'cur')
  return {
    format: optNumber(item, 'v') ?? FORMAT_UNRECORDED,
    ...(cur ? { cursor: JSON.parse(cur) as SweepCursor } : {}),
  }
}

/** Records the current format on a table just created (nothing older can be in it). */
export async function recordNewTable(client: DynamoDBClient, table: string): Promise<void> {
  try {
    await client.send(
      new PutItemCommand({
        TableName: table,
        Item: { ...FORMAT_KEY, v: n(FORMAT_CURRENT) },
        ConditionExpression: 'attribute_not_exists(pk)',
      })
    )
  } catch (e) {
    if (!isConditionalFailure(e)) throw e
  }
}

/** The condition that the stored record is still `at` (format and cursor). */
function stillAt(at: FormatRecord): { expr: string; values: Item } {
  const format =
    at.format === FORMAT_UNRECORDED ? '(attribute_not_exists(v) OR v = :from)' : 'v = :from'
  const cursor = at.cursor ? 'cur = :cur' : 'attribute_not_exists(cur)'
  return {
    expr: `${format} AND ${cursor}`,
    values: {
      ':from': n(at.format),
      ...(at.cursor ? { ':cur': s(JSON.stringify(at.cursor)) } : {}),
    },
  }
}

/**
 * Moves the record from `at` to `next` (a cursor within the same format, or the next format
 * without one) if nobody moved it meanwhile; false when somebody did.
 */
export async function advanceFormat(
  ctx: StoreContext,
  at: FormatRecord,
  next: FormatRecord
): Promise<boolean> {
  const cond = stillAt(at)
  const set = next.cursor ? 'SET v = :to, cur = :next' : 'SET v = :to REMOVE cur'
  try {
    await ctx.client.send(
      new UpdateItemCommand({
        TableName: ctx.table,
        Key: FORMAT_KEY,
        UpdateExpression: set,
        ConditionExpression: cond.expr,
        ExpressionAttributeValues: {
          ...cond.values,
          ':to': n(next.format),
          ...(next.cursor ? { ':next': s(JSON.stringify(next.cursor)) } : {}),
        },
      })
    )
    return true
  } catch (e) {
    if (!isConditionalFailure(e)) throw e
    return false
  }
}

/** Whether the table is at the current format; cached once it is (formats never go back). */
export function formatWatch(ctx: StoreContext): { isCurrent(): Promise<boolean> } {
  let current = false
  return {
    async isCurrent() {
      if (current) return true
      current = (await readFormat(ctx)).format >= FORMAT_CURRENT
      return current
    },
  }
}
