/**
 * create, update and delete of objects. Each is: encode the body (413 past 1 MiB, before anything
 * is written), take a resourceVersion from the counter, write chunks if the body is big, write the
 * head with ONE conditional request (absent for create, `rv = expected` for update, present and
 * optionally `rv = expected` for delete), then put the change-log entry (writers of one invocation
 * at once share the counter move and the log's BatchWriteItem: invocation-batcher.ts); an entry that landed late
 * is announced again at a fresh rv (late-entries.ts). A failed condition is
 * turned into AlreadyExists / Conflict (a StaleWriteError, so callers without preconditions can
 * read again and retry) / NotFound here, after deleting the chunks just written.
 * Retry safety comes from the identity of the attempt, never from comparing content: the rv taken
 * for a write is unique to it, so when a head put whose outcome was unknown (a lost response, a
 * timeout) is sent again and its condition fails, the head holding exactly that rv is this
 * attempt's own write, and the write succeeds; any other head means someone else wrote, and the
 * answer is a conflict — or, when this attempt may also have landed before being overwritten,
 * 504 Timeout (outcome unknown), as kube answers when etcd's response is lost. A repeated call is
 * a new attempt with a new rv: a stale precondition is a conflict even if the bodies agree.
 * Which layer sends again: the SDK's retry loop resends throttled, 5xx and network failures (with
 * its backoff and attempt limit); the store never repeats a send that loop has seen, and resends
 * only failures raised around the SDK whose outcome is unknown. A refused condition after the SDK
 * resent counts as uncertain too: an earlier send of the same command may have landed.
 * A key too long to be stored (key-size.ts) is refused before any request: NotFound for update and
 * delete (nothing can be stored there), 422 Invalid for create.
 * A write and its change-log entry are one outcome within a budget: each write reserves, before it
 * sends anything, the subrequests it and its entry need (write-costs.ts,
 * lib/budget/reservation.ts), and is refused with 429 (nothing written) when they do not fit; so no
 * budget cuts a write between its head and its entry.
 */
import { DeleteItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb'
import { reserveFor, reserveMore } from '../budget/reservation.ts'
import {
  alreadyExists,
  badRequest,
  describeTarget,
  notFound,
  outcomeUnknown,
  StaleWriteError,
  serviceUnavailable,
} from '../errors.ts'
import type { KubeObject } from '../kube/types.ts'
import { type Item, isConditionalFailure, n, readNumber } from './attrs.ts'
import { BLOB_WRITE_DEADLINE_MS, deleteBlob, markDeleteRef } from './blobs.ts'
import { encodeBody, parseBody } from './body-codec.ts'
import type { StoreContext } from './context.ts'
import { objectKeyFits, tooLongToStore } from './key-size.ts'
import { checkObjectKey, headKey } from './keys.ts'
import { announceWhileLate, type IssuedRv, issueRv } from './late-entries.ts'
import { putLog } from './log-puts.ts'
import { blobOf, getHead, headItem, headObject, logItemFor, storeBody } from './object-items.ts'
import { resentBySdk, sendUntilKnown } from './send-until-known.ts'
import type { ObjectKey } from './types.ts'
import {
  bodyCost,
  DELETE_ANNOUNCE_COST,
  OBJECT_DELETE_COST,
  OBJECT_WRITE_COST,
} from './write-costs.ts'

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

type WrittenHead = { head: Item; text: string; issued: IssuedRv }

/** Writes the head; on a failed condition succeeds only when the stored head is this attempt's. */
async function writeHead(ctx: StoreContext, w: HeadWrite): Promise<WrittenHead> {
  const { key, obj, expectedRv } = w
  const { text, data } = await encodeBody(obj, describeTarget(key.resource, key.group, key.name))
  reserveMore(bodyCost(data.length))
  const issued = await issueRv(ctx)
  const { rv } = issued
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
  // A put that failed in transit may have landed: its chunks stay (the sweep removes them later
  // if nothing references them).
  const { refused, uncertain } = await sendUntilKnown(() =>
    ctx.client.send(new PutItemCommand({ TableName: ctx.table, Item: head, ...condition }))
  )
  if (!refused) return { head, text, issued }
  const current = await getHead(ctx, key)
  // The rv is this attempt's alone: a head holding it is this write, landed by an earlier send.
  if (current && readNumber(current, 'rv') === rv) return { head: current, text, issued }
  if (uncertain)
    throw outcomeUnknown(
      `the write of ${describeTarget(key.resource, key.group, key.name)} may or may not have been applied (its response was lost and the object changed since); read it and try again`
    )
  await dropBlob()
  if (!current) {
    if (expectedRv === undefined) throw alreadyExists(key.resource, target(key))
    throw notFound(key.resource, target(key))
  }
  if (expectedRv === undefined) throw alreadyExists(key.resource, target(key))
  throw new StaleWriteError(key.resource, target(key), MODIFIED_MESSAGE)
}

async function writeObject(ctx: StoreContext, w: HeadWrite): Promise<KubeObject> {
  checkObjectKey(w.key)
  if (!objectKeyFits(w.key)) {
    // Nothing is stored under a key this long: an update finds nothing, a create cannot be kept.
    if (w.expectedRv === undefined) throw tooLongToStore(w.key)
    throw notFound(w.key.resource, target(w.key))
  }
  const first = await reserveFor(OBJECT_WRITE_COST, async () => {
    const written = await writeHead(ctx, w)
    await logHead(ctx, written.head, w.expectedRv === undefined ? 'ADDED' : 'MODIFIED')
    return written
  })
  const last = await announceWhileLate(ctx, first, (prev) =>
    writeAgain(ctx, w.key, w.obj, prev.head)
  )
  return parseBody(last.text, readNumber(last.head, 'rv'))
}

async function logHead(ctx: StoreContext, head: Item, type: 'ADDED' | 'MODIFIED'): Promise<void> {
  const at = { rv: readNumber(head, 'rv'), ts: readNumber(head, 'ts'), landed: ctx.now() }
  await putLog(ctx, logItemFor(ctx, head, { type, ...at }))
}

/**
 * A late entry (late-entries.ts) is announced again by writing the object again, unchanged, on
 * the condition that it is still this write's version: a MODIFIED at a fresh rv. Whoever changed or
 * deleted it meanwhile logged that later change themselves, and a failure to write again leaves
 * the first write as it was (it stands; only its announcement was late): both end the loop.
 */
async function writeAgain(
  ctx: StoreContext,
  key: ObjectKey,
  obj: KubeObject,
  head: Item
): Promise<WrittenHead | undefined> {
  try {
    return await reserveFor(OBJECT_WRITE_COST, async () => {
      const again = await writeHead(ctx, { key, obj, expectedRv: readNumber(head, 'rv') })
      await logHead(ctx, again.head, 'MODIFIED')
      return again
    })
  } catch {
    return undefined
  }
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
  return reserveFor(OBJECT_DELETE_COST, () => removeHead(ctx, key, expectedRv))
}

async function removeHead(
  ctx: StoreContext,
  key: ObjectKey,
  expectedRv: string | undefined
): Promise<KubeObject> {
  const expected = expectedRv === undefined ? undefined : parseRv(expectedRv)
  const issued = await issueRv(ctx)
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
    if (resentBySdk(e))
      throw outcomeUnknown(
        `the delete of ${describeTarget(key.resource, key.group, key.name)} may or may not have been applied (an earlier send may have landed); read it and try again`
      )
    const current = await getHead(ctx, key)
    if (!current) throw notFound(key.resource, target(key))
    const why = `Precondition failed: ResourceVersion in precondition: ${expected}, ResourceVersion in object meta: ${readNumber(current, 'rv')}`
    throw new StaleWriteError(key.resource, target(key), why)
  }
  if (!old) throw notFound(key.resource, target(key))
  const [obj, last] = await Promise.all([headObject(ctx, old), logDeletion(ctx, old, issued, ts)])
  obj.metadata = { ...obj.metadata, resourceVersion: String(last) }
  return obj
}

/**
 * Logs the DELETED entry of `old` and, while that landed late (late-entries.ts), logs it again at a
 * fresh rv; the blob of a big object records the last entry that references it. Returns the rv of
 * the last entry.
 */
async function logDeletion(
  ctx: StoreContext,
  old: Item,
  first: IssuedRv,
  firstTs: number
): Promise<number> {
  const blob = blobOf(old)
  const log = async (issued: IssuedRv, ts: number) => {
    if (blob) await markDeleteRef(ctx, blob.blobRv, issued.rv)
    const landed = ctx.now()
    await putLog(ctx, logItemFor(ctx, old, { type: 'DELETED', rv: issued.rv, ts, landed }))
    return { issued }
  }
  await log(first, firstTs)
  // An announcement again that finds no room is left out: the first entry stands, only late.
  const last = await announceWhileLate(ctx, { issued: first }, () =>
    reserveFor(DELETE_ANNOUNCE_COST, async () => log(await issueRv(ctx), ctx.now())).catch(
      () => undefined
    )
  )
  return last.issued.rv
}
