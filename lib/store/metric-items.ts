/**
 * The Worker's aggregated metrics (docs/ARCHITECTURE.md, "Metrics"): items with pk `metrics` and
 * sk `shard-<nn>`, each attribute one series' running total (names built by
 * lib/metrics/delta-codec.ts). An isolate adds its deltas to the one shard it picked with atomic
 * `ADD` UpdateItems — one per flush unless the delta needs more than `MAX_TERMS` attributes (the
 * 4 KB expression limit) — and /metrics sums every shard with one Query. Deltas of a chunk that
 * DynamoDB throttled or that never reached it are handed back to be sent with the next flush;
 * those of a chunk that may have landed (a timeout, a lost response) or was refused are dropped,
 * since ADD is not idempotent and counting twice is worse than missing a few.
 */

import { UpdateItemCommand } from '@aws-sdk/client-dynamodb'
import { type Item, n, s } from './attrs.ts'
import type { StoreContext } from './context.ts'
import { queryAll } from './query-all.ts'
import { classifyStoreError } from './request-observer.ts'

export const METRICS_PK = 'metrics'
/** Shards the isolates spread their writes over (each isolate picks one). */
export const METRIC_SHARDS = 16
/** Attributes per UpdateItem: `#aNNN :vNN, ` terms stay well inside 4 KB. */
export const MAX_TERMS = 250

export type MetricFlushResult = {
  /** Series added. */
  applied: number
  /** Deltas that certainly did not land: send them again with the next flush. */
  retry: Map<string, number>
  /** Series whose deltas were given up (may or may not have landed, or were refused). */
  dropped: number
}

export type MetricItems = {
  add(shard: number, deltas: ReadonlyMap<string, number>): Promise<MetricFlushResult>
  /** Every attribute summed over the shards. */
  read(): Promise<Map<string, number>>
}

/** An error after which the update certainly did not land: throttled, or never connected. */
export function certainlyNotApplied(e: unknown): boolean {
  if (!(e instanceof Error)) return false
  if (classifyStoreError(e) === 'throttled') return true
  return (e as { code?: string }).code === 'ECONNREFUSED'
}

export const shardSk = (shard: number) => `shard-${String(shard).padStart(2, '0')}`

/** A stored number: at most six decimals, so a float's tail never makes an invalid number. */
const stored = (v: number) => n(Number.isInteger(v) ? v : Number(v.toFixed(6)))

async function addChunk(ctx: StoreContext, shard: number, chunk: [string, number][]) {
  const names: Record<string, string> = {}
  const values: Item = {}
  const valueIds = new Map<string, string>()
  const terms = chunk.map(([attr, delta], i) => {
    names[`#a${i}`] = attr
    const text = stored(delta).N as string
    let id = valueIds.get(text)
    if (!id) {
      id = `:v${valueIds.size}`
      valueIds.set(text, id)
      values[id] = { N: text }
    }
    return `#a${i} ${id}`
  })
  await ctx.client.send(
    new UpdateItemCommand({
      TableName: ctx.table,
      Key: { pk: s(METRICS_PK), sk: s(shardSk(shard)) },
      UpdateExpression: `ADD ${terms.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    })
  )
}

export async function addMetricDeltas(
  ctx: StoreContext,
  shard: number,
  deltas: ReadonlyMap<string, number>
): Promise<MetricFlushResult> {
  const entries = [...deltas].filter(([, v]) => v !== 0 && Number.isFinite(v))
  const result: MetricFlushResult = { applied: 0, retry: new Map(), dropped: 0 }
  for (let i = 0; i < entries.length; i += MAX_TERMS) {
    const chunk = entries.slice(i, i + MAX_TERMS)
    try {
      await addChunk(ctx, shard, chunk)
      result.applied += chunk.length
    } catch (e) {
      if (certainlyNotApplied(e)) for (const [k, v] of chunk) result.retry.set(k, v)
      else result.dropped += chunk.length
    }
  }
  return result
}

export async function readMetricTotals(ctx: StoreContext): Promise<Map<string, number>> {
  const totals = new Map<string, number>()
  const items = await queryAll(ctx, {
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': s(METRICS_PK) },
  })
  for (const item of items) {
    for (const [attr, value] of Object.entries(item)) {
      if (attr === 'pk' || attr === 'sk' || value.N === undefined) continue
      const v = Number(value.N)
      if (Number.isFinite(v)) totals.set(attr, (totals.get(attr) ?? 0) + v)
    }
  }
  for (const [k, v] of totals) if (!Number.isInteger(v)) totals.set(k, Number(v.toFixed(6)))
  return totals
}

export function createMetricItems(ctx: StoreContext): MetricItems {
  return {
    add: (shard, deltas) => addMetricDeltas(ctx, shard, deltas),
    read: () => readMetricTotals(ctx),
  }
}
