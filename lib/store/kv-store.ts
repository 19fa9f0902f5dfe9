/**
 * The key-value store (relay and resync cursors, version-choice memory, tokens, spaces): items
 * with pk `kv#<ns>`, sk the key, `value` (JSON text) and `version` (a number that starts at 1 and
 * grows by one per write). Every put is one request: unconditional (`ADD version`), only-if-absent
 * (AlreadyExists otherwise) or only-if-version-matches (Conflict otherwise, also when absent); a
 * swap is an unconditional put that also answers the entry it replaced, in the same request.
 * Deleting an absent entry without an expected version is a no-op, so deletes can be repeated.
 * A key too long to be stored (key-size.ts) holds nothing: get answers absent and list nothing
 * without a request, delete is that of an absent entry, and put is 400.
 */
import {
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb'
import { alreadyExists, badRequest, conflict, tooLarge } from '../errors.ts'
import { type Item, isConditionalFailure, n, readNumber, readString, s } from './attrs.ts'
import { getItems } from './batch-get.ts'
import type { StoreContext } from './context.ts'
import { kvKeyFits } from './key-size.ts'
import { kvPk } from './keys.ts'
import type { KvEntry, KvPage, KvStore } from './types.ts'

/** Largest stored value, as JSON bytes (one item holds at most 400 KB). */
export const MAX_KV_VALUE_BYTES = 350_000

const RESOURCE = 'kv'
const NAMES = { '#v': 'value' }

function keyOf(ns: string, key: string): Item {
  if (key === '') throw badRequest('a key-value key must not be empty')
  return { pk: s(kvPk(ns)), sk: s(key) }
}

function tooLong(ns: string, key: string) {
  return badRequest(`key-value key ${ns}/${key.slice(0, 64)}… is too long to be stored`)
}

function encodeValue(ns: string, key: string, value: unknown): string {
  const text = JSON.stringify(value)
  if (text === undefined) throw badRequest(`value for ${ns}/${key} is not JSON`)
  const size = new TextEncoder().encode(text).length
  if (size > MAX_KV_VALUE_BYTES) {
    throw tooLarge(`value for ${ns}/${key} is ${size} bytes; the limit is ${MAX_KV_VALUE_BYTES}`)
  }
  return text
}

function toEntry<T>(item: Item): KvEntry<T> {
  return {
    key: readString(item, 'sk'),
    value: JSON.parse(readString(item, 'value')) as T,
    version: readNumber(item, 'version'),
  }
}

async function putValue(
  ctx: StoreContext,
  at: { ns: string; key: string },
  text: string,
  expectedVersion: number | null | undefined
): Promise<number> {
  const Key = keyOf(at.ns, at.key)
  const target = { kind: RESOURCE, name: `${at.ns}/${at.key}` }
  try {
    if (expectedVersion === null) {
      const Item = { ...Key, value: s(text), version: n(1) }
      await ctx.client.send(
        new PutItemCommand({
          TableName: ctx.table,
          Item,
          ConditionExpression: 'attribute_not_exists(pk)',
        })
      )
      return 1
    }
    const check =
      expectedVersion === undefined ? {} : { ConditionExpression: 'version = :expected' }
    const values: Item = { ':v': s(text), ':one': n(1) }
    if (expectedVersion !== undefined) values[':expected'] = n(expectedVersion)
    const out = await ctx.client.send(
      new UpdateItemCommand({
        TableName: ctx.table,
        Key,
        UpdateExpression: 'SET #v = :v ADD version :one',
        ExpressionAttributeNames: NAMES,
        ExpressionAttributeValues: values,
        ReturnValues: 'UPDATED_NEW',
        ...check,
      })
    )
    return readNumber(out.Attributes ?? {}, 'version')
  } catch (e) {
    if (!isConditionalFailure(e)) throw e
    if (expectedVersion === null) throw alreadyExists(RESOURCE, target)
    throw conflict(RESOURCE, target, `the stored version is not ${expectedVersion}`)
  }
}

/**
 * At most `page.limit` entries with `prefix` after `page.after`: Queries from the later of the two
 * (keys with the prefix sort from the prefix itself on), each asking for what is still missing and
 * going on only while a 1 MB page cut the answer short, stopping where the prefix ends.
 */
async function listPage<T>(
  ctx: StoreContext,
  ns: string,
  prefix: string,
  page: KvPage
): Promise<KvEntry<T>[]> {
  const out: KvEntry<T>[] = []
  const after = page.after !== undefined && page.after >= prefix ? page.after : undefined
  let start: Item | undefined
  while (out.length < page.limit) {
    const res = await ctx.client.send(
      new QueryCommand({
        TableName: ctx.table,
        KeyConditionExpression:
          after !== undefined ? 'pk = :pk AND sk > :after' : 'pk = :pk AND sk >= :prefix',
        ExpressionAttributeValues: {
          ':pk': s(kvPk(ns)),
          ...(after !== undefined ? { ':after': s(after) } : { ':prefix': s(prefix || '\u0000') }),
        },
        ConsistentRead: true,
        Limit: page.limit - out.length,
        ExclusiveStartKey: start,
      })
    )
    for (const item of res.Items ?? []) {
      if (!readString(item, 'sk').startsWith(prefix)) return out
      out.push(toEntry<T>(item))
    }
    start = res.LastEvaluatedKey
    if (!start) break
  }
  return out
}

export function createKvStore(ctx: StoreContext): KvStore {
  return {
    async get<T = unknown>(ns: string, key: string): Promise<KvEntry<T> | undefined> {
      if (!kvKeyFits(ns, key)) return undefined
      const out = await ctx.client.send(
        new GetItemCommand({ TableName: ctx.table, Key: keyOf(ns, key), ConsistentRead: true })
      )
      return out.Item && toEntry<T>(out.Item)
    },

    async getMany<T = unknown>(ns: string, keys: readonly string[]) {
      const wanted = [...new Set(keys)].filter((key) => kvKeyFits(ns, key))
      const items =
        wanted.length > 0
          ? await getItems(
              ctx,
              wanted.map((k) => keyOf(ns, k))
            )
          : []
      return new Map(items.map((item) => [readString(item, 'sk'), toEntry<T>(item)] as const))
    },

    async put(
      ns: string,
      key: string,
      value: unknown,
      expectedVersion?: number | null
    ): Promise<number> {
      if (expectedVersion != null && !Number.isSafeInteger(expectedVersion)) {
        throw badRequest(`invalid expected version ${expectedVersion}`)
      }
      if (!kvKeyFits(ns, key)) throw tooLong(ns, key)
      return putValue(ctx, { ns, key }, encodeValue(ns, key, value), expectedVersion)
    },

    async swap<T = unknown>(ns: string, key: string, value: unknown) {
      if (!kvKeyFits(ns, key)) throw tooLong(ns, key)
      const out = await ctx.client.send(
        new UpdateItemCommand({
          TableName: ctx.table,
          Key: keyOf(ns, key),
          UpdateExpression: 'SET #v = :v ADD version :one',
          ExpressionAttributeNames: NAMES,
          ExpressionAttributeValues: { ':v': s(encodeValue(ns, key, value)), ':one': n(1) },
          ReturnValues: 'ALL_OLD',
        })
      )
      return out.Attributes ? toEntry<T>(out.Attributes) : undefined
    },

    async delete(ns: string, key: string, expectedVersion?: number): Promise<void> {
      if (!kvKeyFits(ns, key)) {
        // Absent: a no-op, or Conflict when a version was expected (as for any absent entry).
        if (expectedVersion === undefined) return
        const target = { kind: RESOURCE, name: `${ns}/${key}` }
        throw conflict(RESOURCE, target, `the stored version is not ${expectedVersion}`)
      }
      const condition =
        expectedVersion === undefined
          ? {}
          : {
              ConditionExpression: 'version = :expected',
              ExpressionAttributeValues: { ':expected': n(expectedVersion) },
            }
      try {
        await ctx.client.send(
          new DeleteItemCommand({ TableName: ctx.table, Key: keyOf(ns, key), ...condition })
        )
      } catch (e) {
        if (!isConditionalFailure(e)) throw e
        const target = { kind: RESOURCE, name: `${ns}/${key}` }
        throw conflict(RESOURCE, target, `the stored version is not ${expectedVersion}`)
      }
    },

    async list<T = unknown>(ns: string, prefix = '', page?: KvPage): Promise<KvEntry<T>[]> {
      const entries: KvEntry<T>[] = []
      if (!kvKeyFits(ns, prefix)) return entries
      if (page) return listPage<T>(ctx, ns, prefix, page)
      const values: Item = { ':pk': s(kvPk(ns)) }
      if (prefix) values[':prefix'] = s(prefix)
      let start: Item | undefined
      do {
        const out = await ctx.client.send(
          new QueryCommand({
            TableName: ctx.table,
            KeyConditionExpression: prefix ? 'pk = :pk AND begins_with(sk, :prefix)' : 'pk = :pk',
            ExpressionAttributeValues: values,
            ConsistentRead: true,
            ExclusiveStartKey: start,
          })
        )
        for (const item of out.Items ?? []) entries.push(toEntry<T>(item))
        start = out.LastEvaluatedKey
      } while (start)
      return entries
    },
  }
}
