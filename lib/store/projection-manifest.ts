/**
 * Mailbox manifests: one item per mailbox, pk `mf#<mailbox>`, sk `-`, with `ver` (the rv of the
 * last write, the precondition for the next), `ts` and the encoded entries in `body`
 * (projection-codec.ts). Reads (one GetItem, or one BatchGetItem per 100 mailboxes) and the
 * deletion of a mailbox's manifest live here; writes in projection-manifest-write.ts. Copy states
 * of removed entries stay until the sweep (projection-sweep.ts); a re-added copy gets a new uid,
 * so an old state never shows on it. Tombstones (`removing`) are ordinary entries: setting or
 * clearing `removing` is a change (new rv, MODIFIED), a change of `sources` alone is written
 * without an event, and dropping a tombstone is a removal (DELETED).
 */
import { DeleteItemCommand, GetItemCommand } from '@aws-sdk/client-dynamodb'
import { badRequest, conflict } from '../errors.ts'
import { type Item, isConditionalFailure, n, optBytes, readNumber, readString, s } from './attrs.ts'
import { deleteKeys } from './batch-delete.ts'
import { getItems } from './batch-get.ts'
import { putItems } from './batch-put.ts'
import type { StoreContext } from './context.ts'
import { checkObjectKey, manifestPk, SINGLE_SK } from './keys.ts'
import { issueRv, logAgainWhileLate } from './late-entries.ts'
import { decodeEntries } from './projection-codec.ts'
import { landedNow, projectionLogItems } from './projection-log.ts'
import type { DesiredEntry, Manifest, SharedMembership } from './projection-types.ts'
import {
  advancedMarks,
  composeEntries,
  membershipOf,
  readShared,
  type SharedManifest,
  sharedFor,
  sharedFromItem,
  sharedKey,
  sharedPk,
} from './shared-manifest.ts'
import { memberKey } from './shared-members.ts'

const DELETE_ATTEMPTS = 5

/** The table key of a mailbox's manifest item. */
export const manifestKey = (mailbox: string): Item => ({
  pk: s(manifestPk(mailbox)),
  sk: s(SINGLE_SK),
})
export const manifestConflict = (mailbox: string, why: string) =>
  conflict('manifests', { name: mailbox }, why)

/** Whether `mailbox` can name a manifest (and the copy states of the mailbox). */
export const isMailboxId = (mailbox: string): boolean =>
  mailbox !== '' && mailbox !== '*' && !/[#/]/.test(mailbox)

/** BadRequest unless `mailbox` can name a manifest (isMailboxId). */
export function checkMailbox(mailbox: string): void {
  if (!isMailboxId(mailbox)) throw badRequest(`invalid mailbox id "${mailbox}"`)
}

type Stored = { manifest: Manifest; membership?: SharedMembership }

async function fromItem(mailbox: string, item: Item): Promise<Stored> {
  const [entries, membership] = await Promise.all([
    decodeEntries(optBytes(item, 'body') ?? new Uint8Array()),
    membershipOf(item),
  ])
  const manifest = { mailbox, version: readNumber(item, 'ver'), entries }
  return { manifest, ...(membership ? { membership } : {}) }
}

/**
 * The manifests as their readers see them: a member's entries composed with its shared manifest
 * (read with one BatchGetItem for all of them), and its marks as the composed entries stand.
 */
async function composed(ctx: StoreContext, stored: readonly Stored[]): Promise<Manifest[]> {
  const ids = stored.flatMap((m) => (m.membership ? [m.membership.id] : []))
  const found = await readShared(ctx, ids)
  return stored.map((m) => composeWith(m, found))
}

/** One stored manifest composed with its shared manifest among `found`. */
function composeWith(
  { manifest, membership }: Stored,
  found: ReadonlyMap<string, SharedManifest>
): Manifest {
  if (!membership) return manifest
  const shared = sharedFor(manifest.mailbox, membership, found)
  const entries = composeEntries(manifest.entries, membership, shared)
  const now = { ...membership, marks: advancedMarks(membership.marks, shared) }
  return { ...manifest, entries, shared: { membership: now, version: shared.version } }
}

/**
 * The manifest items of `mailboxes` (each once; BadRequest for an invalid id), read consistently
 * in one BatchGetItem per 100; only the attributes `projection` names when given.
 */
export async function manifestItems(
  ctx: StoreContext,
  mailboxes: readonly string[],
  projection?: string
): Promise<Item[]> {
  const unique = [...new Set(mailboxes)]
  for (const m of unique) checkMailbox(m)
  return getItems(ctx, unique.map(manifestKey), projection)
}

/**
 * The stored manifests of `mailboxes` (read consistently, batch-get.ts), by mailbox; absent ones
 * are missing from the map.
 */
export async function readManifests(
  ctx: StoreContext,
  mailboxes: readonly string[]
): Promise<Map<string, Manifest>> {
  const items = await manifestItems(ctx, mailboxes)
  const read = await Promise.all(
    items.map((item) => fromItem(readString(item, 'pk').slice(manifestPk('').length), item))
  )
  return new Map((await composed(ctx, read)).map((m) => [m.mailbox, m]))
}

/** The stored versions of the manifests of `mailboxes` (absent ones missing): one small read per 100. */
export async function readVersions(
  ctx: StoreContext,
  mailboxes: readonly string[]
): Promise<Map<string, number>> {
  const unique = [...new Set(mailboxes)]
  const items = await getItems(ctx, unique.map(manifestKey), 'pk, ver')
  const prefix = manifestPk('').length
  return new Map(
    items.map((item) => [readString(item, 'pk').slice(prefix), readNumber(item, 'ver')])
  )
}

/** The stored manifest, read consistently; undefined when absent. */
/**
 * Which shared manifest each mailbox belonged to when last read, so the next read of one fetches
 * both items in one request (a per-store memory of at most HINT_LIMIT mailboxes; a wrong hint
 * costs one more read, never a wrong answer).
 */
export type ShareHints = Map<string, string>
const HINT_LIMIT = 20_000

async function readWithHint(
  ctx: StoreContext,
  mailbox: string,
  hint: string
): Promise<Manifest | undefined> {
  const items = await getItems(ctx, [manifestKey(mailbox), sharedKey(hint)])
  const item = items.find((i) => readString(i, 'pk') === manifestPk(mailbox))
  if (!item) return undefined
  const stored = await fromItem(mailbox, item)
  const shared = items.find((i) => readString(i, 'pk') === sharedPk(hint))
  if (stored.membership?.id !== hint || !shared) return (await composed(ctx, [stored]))[0]
  const found = new Map([[hint, await sharedFromItem(shared)]])
  return composeWith(stored, found)
}

/** The stored manifest, read consistently; undefined when absent. */
export async function readManifest(
  ctx: StoreContext,
  mailbox: string,
  hints?: ShareHints
): Promise<Manifest | undefined> {
  checkMailbox(mailbox)
  const hint = hints?.get(mailbox)
  let manifest: Manifest | undefined
  if (hint !== undefined) manifest = await readWithHint(ctx, mailbox, hint)
  else {
    const out = await ctx.client.send(
      new GetItemCommand({ TableName: ctx.table, Key: manifestKey(mailbox), ConsistentRead: true })
    )
    if (!out.Item) return undefined
    manifest = (await composed(ctx, [await fromItem(mailbox, out.Item)]))[0]
  }
  if (hints) {
    hints.delete(mailbox)
    const id = manifest?.shared?.membership.id
    if (id !== undefined) hints.set(mailbox, id)
    if (hints.size > HINT_LIMIT) hints.delete(hints.keys().next().value as string)
  }
  return manifest
}

/** BadRequest unless every desired entry has a valid key, a version and a valid `removing`. */
export function checkDesired(mailbox: string, desired: readonly DesiredEntry[]): void {
  for (const d of desired) {
    const { group, resource, namespace, name } = d
    checkObjectKey({ cluster: mailbox, group, resource, namespace, name })
    if (!d.version) throw badRequest(`${resource} "${name}": version must not be empty`)
    if (d.removing !== undefined && Number.isNaN(Date.parse(d.removing)))
      throw badRequest(`${resource} "${name}": removing must be an RFC 3339 time`)
  }
}

/** Deletes the manifest and logs DELETED for each entry; retried when it changes meanwhile. */
export async function deleteManifest(ctx: StoreContext, mailbox: string): Promise<void> {
  for (let attempt = 0; attempt < DELETE_ATTEMPTS; attempt++) {
    const current = await readManifest(ctx, mailbox)
    if (!current) return
    const issued = await issueRv(ctx)
    const deleted = (rv: number) =>
      current.entries.map((e) => ({ type: 'DELETED' as const, entry: { ...e, rv } }))
    const logAt = (at: { rv: number; ts: number }) =>
      projectionLogItems(ctx, mailbox, deleted(at.rv), at)
    const logItems = await logAt({ rv: issued.rv, ts: ctx.now() })
    try {
      await ctx.client.send(
        new DeleteItemCommand({
          TableName: ctx.table,
          Key: manifestKey(mailbox),
          ConditionExpression: 'ver = :v',
          ExpressionAttributeValues: { ':v': n(current.version) },
        })
      )
    } catch (e) {
      if (!isConditionalFailure(e)) throw e
      continue
    }
    const id = current.shared?.membership.id
    await Promise.all([
      putItems(ctx, landedNow(ctx, logItems)),
      id === undefined ? undefined : deleteKeys(ctx, [memberKey(id, mailbox)]),
    ])
    await logAgainWhileLate(ctx, issued, logAt)
    return
  }
  throw manifestConflict(mailbox, 'the manifest kept changing while it was being deleted')
}
