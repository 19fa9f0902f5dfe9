/**
 * create, update and delete of objects. Each is: encode the body (413 past 1 MiB, before anything
 * is written), take a resourceVersion from the counter, write chunks if the body is big, write the
 * head with ONE conditional request (absent for create, `rv = expected` for update, present and
 * optionally `rv = expected` for delete), then put the change-log entry. A failed condition is
 * turned into AlreadyExists / Conflict / NotFound here, after deleting the chunks just written.
 * Retries are safe: if the head already holds exactly the body being written (same JSON, and for
 * create the same uid), the earlier attempt landed, so the write succeeds with the stored
 * resourceVersion and (re)puts its log entry, which also repairs a log entry lost to a crash.
 * A key too long to be stored (key-size.ts) is refused before any request: NotFound for update and
 * delete (nothing can be stored there), 422 Invalid for create.
 */
import { DeleteItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb'
import {
  alreadyExists,
  badRequest,
  conflict,
  describeTarget,
  notFound,
  serviceUnavailable,
} from '../errors.ts'
import type { KubeObject } from '../kube/types.ts'
import { type Item, isConditionalFailure, n, readNumber } from './attrs.ts'
import { BLOB_WRITE_DEADLINE_MS, deleteBlob, markDeleteRef } from './blobs.ts'
import { encodeBody, parseBody } from './body-codec.ts'
import type { StoreContext } from './context.ts'
import { objectKeyFits, tooLongToStore } from './key-size.ts'
import { checkObjectKey, headKey } from './keys.ts'
import { allocateRv } from './meta-items.ts'
import {
  blobOf,
  getHead,
  headItem,
  headObject,
  itemText,
  logItemFor,
  putItem,
  storeBody,
} from './object-items.ts'
import type { ObjectKey } from './types.ts'

const MODIFIED_MESSAGE =
  'the object has been modified; please apply your changes to the latest version and try again'

const target = (key: ObjectKey) => ({
  ...(key.group ? { group: key.group } : {}),
  kind: key.resource,
  name: key.name,
})

function parseRv(raw: string): number {
  if (!/^[0-9]{1,19}$/.test(raw)) throw badRequest(`invalid resourceVersion "${raw}"`)
  return Number(raw)
}

type HeadWrite = {
  key: ObjectKey
  obj: KubeObject
  /** undefined = create (must be absent); a number = update (stored rv must equal it). */
  expectedRv: number | undefined
}

/** Writes the head; on a failed condition returns the stored head when it already holds our body. */
async function writeHead(ctx: StoreContext, w: HeadWrite): Promise<{ head: Item; text: string }> {
  const { key, obj, expectedRv } = w
  const { text, data } = await encodeBody(obj, describeTarget(key.resource, key.group, key.name))
  const rv = await allocateRv(ctx)
  const ts = ctx.now()
  const body = await storeBody(ctx, rv, data, key)
  const blob = 'blob' in body ? body.blob : undefined
  const dropBlob = () => (blob ? deleteBlob(ctx, blob).catch(() => undefined) : undefined)
  if (blob && ctx.now() - ts > BLOB_WRITE_DEADLINE_MS) {
    await dropBlob()
    throw serviceUnavailable('storing a large object took too long; try again')
  }
  const head = headItem(key, rv, ts, body)
  const condition =
    expectedRv === undefined
      ? { ConditionExpression: 'attribute_not_exists(pk)' }
      : {
          ConditionExpression: 'rv = :expected',
          ExpressionAttributeValues: { ':expected': n(expectedRv) },
        }
  try {
    await ctx.client.send(new PutItemCommand({ TableName: ctx.table, Item: head, ...condition }))
    return { head, text }
  } catch (e) {
    // Any other failure may have landed the head (lost response): its chunks must stay; if
    // nothing references them, the sweep removes them later.
    if (!isConditionalFailure(e)) throw e
    await dropBlob()
  }
  const current = await getHead(ctx, key)
  if (!current) {
    if (expectedRv === undefined) throw alreadyExists(key.resource, target(key))
    throw notFound(key.resource, target(key))
  }
  const mayBeOurs = expectedRv !== undefined || obj.metadata?.uid !== undefined
  if (mayBeOurs && (await itemText(ctx, current)) === text) return { head: current, text }
  if (expectedRv === undefined) throw alreadyExists(key.resource, target(key))
  throw conflict(key.resource, target(key), MODIFIED_MESSAGE)
}

async function writeObject(ctx: StoreContext, w: HeadWrite): Promise<KubeObject> {
  checkObjectKey(w.key)
  if (!objectKeyFits(w.key)) {
    // Nothing is stored under a key this long: an update finds nothing, a create cannot be kept.
    if (w.expectedRv === undefined) throw tooLongToStore(w.key)
    throw notFound(w.key.resource, target(w.key))
  }
  const { head, text } = await writeHead(ctx, w)
  const rv = readNumber(head, 'rv')
  const type = w.expectedRv === undefined ? 'ADDED' : 'MODIFIED'
  await putItem(ctx, logItemFor(ctx, head, { type, rv, ts: readNumber(head, 'ts') }))
  return parseBody(text, rv)
}

/** Creates an object; AlreadyExists when the key is taken. */
export async function createObject(
  ctx: StoreContext,
  key: ObjectKey,
  obj: KubeObject
): Promise<KubeObject> {
  return writeObject(ctx, { key, obj, expectedRv: undefined })
}

/** Replaces an object whose stored rv equals `expectedRv`; Conflict or NotFound otherwise. */
export async function updateObject(
  ctx: StoreContext,
  key: ObjectKey,
  obj: KubeObject,
  expectedRv: string
): Promise<KubeObject> {
  return writeObject(ctx, { key, obj, expectedRv: parseRv(expectedRv) })
}

/** Removes an object and logs DELETED; returns its last state at the deletion's rv. */
export async function deleteObject(
  ctx: StoreContext,
  key: ObjectKey,
  expectedRv?: string
): Promise<KubeObject> {
  checkObjectKey(key)
  if (!objectKeyFits(key)) throw notFound(key.resource, target(key))
  const expected = expectedRv === undefined ? undefined : parseRv(expectedRv)
  const rv = await allocateRv(ctx)
  const ts = ctx.now()
  const { pk, sk } = headKey(key)
  let old: Item | undefined
  try {
    const out = await ctx.client.send(
      new DeleteItemCommand({
        TableName: ctx.table,
        Key: { pk: { S: pk }, sk: { S: sk } },
        ConditionExpression:
          expected === undefined
            ? 'attribute_exists(pk)'
            : 'attribute_exists(pk) AND rv = :expected',
        ...(expected === undefined
          ? {}
          : { ExpressionAttributeValues: { ':expected': n(expected) } }),
        ReturnValues: 'ALL_OLD',
      })
    )
    old = out.Attributes
  } catch (e) {
    if (!isConditionalFailure(e)) throw e
    const current = await getHead(ctx, key)
    if (!current) throw notFound(key.resource, target(key))
    const why = `Precondition failed: ResourceVersion in precondition: ${expected}, ResourceVersion in object meta: ${readNumber(current, 'rv')}`
    throw conflict(key.resource, target(key), why)
  }
  if (!old) throw notFound(key.resource, target(key))
  const blob = blobOf(old)
  if (blob) await markDeleteRef(ctx, blob.blobRv, rv)
  const [obj] = await Promise.all([
    headObject(ctx, old),
    putItem(ctx, logItemFor(ctx, old, { type: 'DELETED', rv, ts })),
  ])
  obj.metadata = { ...obj.metadata, resourceVersion: String(rv) }
  return obj
}
