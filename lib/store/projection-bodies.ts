/**
 * Content-addressed projection bodies: pk `pb#<hash>`, sk `-`, the body as stored by body-codec
 * (plain JSON, gzip past 4 KiB) in `body`, and `ts`, the last time a writer confirmed it. A body
 * whose encoding exceeds `INLINE_LIMIT` (no chunking here) or whose JSON exceeds 1 MiB is refused
 * with 413 RequestEntityTooLarge. Writes are conditional on `attribute_not_exists(pk) OR ts < :stale`:
 * a body already stored and recently confirmed is not written again (ConditionalCheckFailed is
 * fine), an old one gets its `ts` refreshed, so the sweep (which removes unreferenced bodies older
 * than the log retention) cannot remove a body a manifest is about to reference. A bounded
 * process-local cache keeps bodies by hash (immutable) and how long each is known fresh: putBodies
 * skips hashes confirmed within half the retention (and writers of one body at once share one
 * put), getBodies reads only misses, with BatchGetItem (batch-get.ts).
 */
import { PutItemCommand } from '@aws-sdk/client-dynamodb'
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
import { getItems } from './batch-get.ts'
import { bodyText, encodeBody, INLINE_LIMIT } from './body-codec.ts'
import type { StoreContext } from './context.ts'
import { bodyPk, SINGLE_SK } from './keys.ts'
import { bodyHash } from './projection-hash.ts'

const CACHE_LIMIT = 5000

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

/** Puts of bodies in flight, per cache: concurrent writers of one new body send one PutItem. */
const inFlight = new WeakMap<BodyCache, Map<string, Promise<string | undefined>>>()

function putOnce(ctx: StoreContext, cache: BodyCache, hash: string, body: KubeObject) {
  let puts = inFlight.get(cache)
  if (!puts) {
    puts = new Map()
    inFlight.set(cache, puts)
  }
  const running = puts.get(hash)
  if (running) return running
  const put = putBody(ctx, cache, hash, body).finally(() => puts.delete(hash))
  puts.set(hash, put)
  return put
}

/** Stores bodies that are not known fresh; returns their hashes in input order. */
export async function putBodies(
  ctx: StoreContext,
  cache: BodyCache,
  bodies: readonly KubeObject[]
): Promise<string[]> {
  const hashes = await Promise.all(bodies.map(bodyHash))
  const now = ctx.now()
  const todo = new Map<string, KubeObject>()
  hashes.forEach((hash, i) => {
    if ((cache.get(hash)?.freshUntil ?? 0) > now) return
    todo.set(hash, bodies[i]!)
  })
  const present = await Promise.all(
    [...todo].map(([hash, body]) => putOnce(ctx, cache, hash, body))
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

/** Reads `hashes` from the table (batch-get.ts) into the cache. */
async function readBodies(
  ctx: StoreContext,
  cache: BodyCache,
  hashes: string[]
): Promise<Map<string, Cached>> {
  const keys = hashes.map((h) => ({ pk: s(bodyPk(h)), sk: s(SINGLE_SK) }))
  const items = await getItems(ctx, keys)
  const found = new Map(await Promise.all(items.map((i) => toCached(ctx, i))))
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
