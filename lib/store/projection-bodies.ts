/**
 * Content-addressed projection bodies: pk `pb#<hash>`, sk `-`, the body as stored by body-codec
 * (plain JSON, gzip past 4 KiB) in `body`, and `ts`, the last time a writer confirmed it. A body
 * whose encoding exceeds `INLINE_LIMIT` (no chunking here) or whose JSON exceeds 1 MiB is refused
 * with 413 RequestEntityTooLarge. Writes are conditional on `attribute_not_exists(pk) OR ts < :stale`:
 * a body already stored and recently confirmed is not written again (ConditionalCheckFailed is
 * fine), an old one gets its `ts` refreshed, so the sweep (which removes unreferenced bodies older
 * than the log retention) cannot remove a body a manifest is about to reference. A bounded
 * process-local cache keeps bodies by hash (immutable) and how long each is known fresh: putBodies
 * skips hashes confirmed within half the retention, getBodies reads only misses, with BatchGetItem.
 */
import { BatchGetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb'
import { internalError, tooLarge } from '../errors.ts'
import type { KubeObject } from '../kube/types.ts'
import {
  b,
  type Item,
  isConditionalFailure,
  n,
  optBytes,
  readNumber,
  readString,
  s,
} from './attrs.ts'
import { bodyText, encodeBody, INLINE_LIMIT } from './body-codec.ts'
import type { StoreContext } from './context.ts'
import { bodyPk, SINGLE_SK } from './keys.ts'
import { contentHash } from './projection-hash.ts'

const CACHE_LIMIT = 5000
const GET_BATCH = 100
const MAX_ROUNDS = 8

type Cached = { body: KubeObject; freshUntil: number }

/** Bodies by hash, least recently used first. Bodies are shared: treat them as read-only. */
export type BodyCache = Map<string, Cached>

function remember(cache: BodyCache, hash: string, entry: Cached): void {
  cache.delete(hash)
  cache.set(hash, entry)
  if (cache.size > CACHE_LIMIT) {
    const oldest = cache.keys().next().value
    if (oldest !== undefined) cache.delete(oldest)
  }
}

const freshFor = (ctx: StoreContext) => ctx.retentionMs / 2
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function putBody(ctx: StoreContext, cache: BodyCache, hash: string, body: KubeObject) {
  const what = `projected ${body.kind} "${body.metadata?.name ?? ''}"`
  const { data } = await encodeBody(body, what)
  if (data.length > INLINE_LIMIT) {
    throw tooLarge(`${what} is too large: ${data.length} compressed bytes exceeds ${INLINE_LIMIT}`)
  }
  const now = ctx.now()
  try {
    await ctx.client.send(
      new PutItemCommand({
        TableName: ctx.table,
        Item: { pk: s(bodyPk(hash)), sk: s(SINGLE_SK), body: b(data), ts: n(now) },
        ConditionExpression: 'attribute_not_exists(pk) OR ts < :stale',
        ExpressionAttributeValues: { ':stale': n(now - freshFor(ctx)) },
      })
    )
    remember(cache, hash, { body: structuredClone(body), freshUntil: now + freshFor(ctx) })
    return undefined
  } catch (e) {
    if (!isConditionalFailure(e)) throw e
    return hash
  }
}

/** Stores bodies that are not known fresh; returns their hashes in input order. */
export async function putBodies(
  ctx: StoreContext,
  cache: BodyCache,
  bodies: readonly KubeObject[]
): Promise<string[]> {
  const hashes = await Promise.all(bodies.map(contentHash))
  const now = ctx.now()
  const todo = new Map<string, KubeObject>()
  hashes.forEach((hash, i) => {
    if ((cache.get(hash)?.freshUntil ?? 0) > now) return
    todo.set(hash, bodies[i]!)
  })
  const present = await Promise.all(
    [...todo].map(([hash, body]) => putBody(ctx, cache, hash, body))
  )
  // Stored already and confirmed recently: read their `ts` so later writes can skip them.
  const known = present.filter((h) => h !== undefined)
  if (known.length > 0) await readBodies(ctx, cache, known)
  return hashes
}

async function toCached(ctx: StoreContext, item: Item): Promise<[string, Cached]> {
  const data = optBytes(item, 'body')
  if (!data) throw internalError('stored projection body has no body')
  const body = JSON.parse(await bodyText(data)) as KubeObject
  const hash = readString(item, 'pk').slice('pb#'.length)
  return [hash, { body, freshUntil: readNumber(item, 'ts') + freshFor(ctx) }]
}

async function readBatch(ctx: StoreContext, hashes: string[]): Promise<[string, Cached][]> {
  const found: [string, Cached][] = []
  let keys: Item[] = hashes.map((h) => ({ pk: s(bodyPk(h)), sk: s(SINGLE_SK) }))
  for (let round = 0; keys.length > 0; round++) {
    if (round === MAX_ROUNDS) throw internalError('batch get made no progress')
    if (round > 0) await pause(20 * 2 ** round)
    const out = await ctx.client.send(
      new BatchGetItemCommand({
        RequestItems: { [ctx.table]: { Keys: keys, ConsistentRead: true } },
      })
    )
    const items = out.Responses?.[ctx.table] ?? []
    found.push(...(await Promise.all(items.map((i) => toCached(ctx, i)))))
    keys = out.UnprocessedKeys?.[ctx.table]?.Keys ?? []
  }
  return found
}

/** Reads `hashes` from the table (100 keys per BatchGetItem, in parallel) into the cache. */
async function readBodies(
  ctx: StoreContext,
  cache: BodyCache,
  hashes: string[]
): Promise<Map<string, Cached>> {
  const batches: Promise<[string, Cached][]>[] = []
  for (let at = 0; at < hashes.length; at += GET_BATCH) {
    batches.push(readBatch(ctx, hashes.slice(at, at + GET_BATCH)))
  }
  const found = new Map((await Promise.all(batches)).flat())
  for (const [hash, entry] of found) remember(cache, hash, entry)
  return found
}

/** Bodies by hash, from the cache or the table; missing ones are absent from the map. */
export async function getBodies(
  ctx: StoreContext,
  cache: BodyCache,
  hashes: readonly string[]
): Promise<Map<string, KubeObject>> {
  const out = new Map<string, KubeObject>()
  const misses: string[] = []
  for (const hash of new Set(hashes)) {
    const hit = cache.get(hash)
    if (!hit) {
      misses.push(hash)
      continue
    }
    remember(cache, hash, hit)
    out.set(hash, hit.body)
  }
  if (misses.length === 0) return out
  for (const [hash, entry] of await readBodies(ctx, cache, misses)) out.set(hash, entry.body)
  return out
}
