/**
 * Mailbox manifests: one item per mailbox, pk `mf#<mailbox>`, sk `-`, with `ver` (the rv of the
 * last write, the precondition for the next), `ts` and the encoded entries in `body`
 * (projection-codec.ts). A write stores the bodies, re-reads the manifest (Conflict unless its
 * version is the expected one), and when something differs takes ONE rv (reading meanwhile the
 * copy states of the entries it changes, so their MODIFIED events keep the reported status), puts
 * the manifest with a condition on `ver` (Conflict when it moved meanwhile; then nothing is logged)
 * and puts one change-log item per touched group/resource with BatchWriteItem. Copy states of
 * removed entries stay until the sweep (projection-sweep.ts); a re-added copy gets a new uid, so an
 * old state never shows on it. Tombstones (`removing`) are ordinary entries here: setting or
 * clearing `removing` is a change (new rv, MODIFIED), a change of `sources` alone is written
 * without an event, and dropping a tombstone is a removal (DELETED). Known limit, as for objects: a
 * crash between the manifest put and its log items loses those watch events (a relist heals it).
 */
import { DeleteItemCommand, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb'
import { badRequest, conflict } from '../errors.ts'
import { timestamp } from '../kube/time.ts'
import { b, type Item, isConditionalFailure, n, optBytes, readNumber, s } from './attrs.ts'
import { putItems } from './batch-put.ts'
import type { StoreContext } from './context.ts'
import { checkObjectKey, manifestPk, SINGLE_SK } from './keys.ts'
import { issueRv, logAgainWhileLate } from './late-entries.ts'
import { type BodyCache, putBodies } from './projection-bodies.ts'
import { decodeEntries, encodeEntries } from './projection-codec.ts'
import {
  entryKey,
  planChanges,
  planManifest,
  stampManifest,
  type WantedEntry,
} from './projection-diff.ts'
import { specHash } from './projection-hash.ts'
import { landedNow, projectionLogItems } from './projection-log.ts'
import { getCopyStates } from './projection-state.ts'
import type {
  DesiredEntry,
  Manifest,
  ManifestWrite,
  ManifestWriteResult,
  StoredCopyState,
} from './projection-types.ts'

const DELETE_ATTEMPTS = 5

const manifestKey = (mailbox: string): Item => ({ pk: s(manifestPk(mailbox)), sk: s(SINGLE_SK) })
const manifestConflict = (mailbox: string, why: string) =>
  conflict('manifests', { name: mailbox }, why)

/** BadRequest unless `mailbox` can name a manifest (and the copy states of the mailbox). */
export function checkMailbox(mailbox: string): void {
  if (mailbox === '' || mailbox === '*' || /[#/]/.test(mailbox)) {
    throw badRequest(`invalid mailbox id "${mailbox}"`)
  }
}

/** The stored manifest, read consistently; undefined when absent. */
export async function readManifest(
  ctx: StoreContext,
  mailbox: string
): Promise<Manifest | undefined> {
  checkMailbox(mailbox)
  const out = await ctx.client.send(
    new GetItemCommand({ TableName: ctx.table, Key: manifestKey(mailbox), ConsistentRead: true })
  )
  if (!out.Item) return undefined
  const entries = await decodeEntries(optBytes(out.Item, 'body') ?? new Uint8Array())
  return { mailbox, version: readNumber(out.Item, 'ver'), entries }
}

function checkDesired(mailbox: string, desired: readonly DesiredEntry[]): void {
  for (const d of desired) {
    const { group, resource, namespace, name } = d
    checkObjectKey({ cluster: mailbox, group, resource, namespace, name })
    if (!d.version) throw badRequest(`${resource} "${name}": version must not be empty`)
    if (d.removing !== undefined && Number.isNaN(Date.parse(d.removing)))
      throw badRequest(`${resource} "${name}": removing must be an RFC 3339 time`)
  }
}

export async function writeManifest(
  ctx: StoreContext,
  cache: BodyCache,
  mailbox: string,
  w: ManifestWrite
): Promise<ManifestWriteResult> {
  const { desired, expectedVersion, now, known } = w
  checkMailbox(mailbox)
  checkDesired(mailbox, desired)
  const bodies = desired.map((d) => d.body)
  const [hashes, specs, current] = await Promise.all([
    putBodies(ctx, cache, bodies),
    Promise.all(bodies.map(specHash)),
    known === undefined ? readManifest(ctx, mailbox) : (known ?? undefined),
  ])
  const expected = expectedVersion || null
  const stored = current?.version ?? null
  if (stored !== expected) {
    throw manifestConflict(mailbox, `the manifest version is ${stored}, not ${expected}`)
  }
  const wanted = desired.map(
    ({ group, version, resource, namespace, name, removing, sources }, i): WantedEntry => ({
      ...{ group, version, resource, namespace, name },
      ...{ hash: hashes[i]!, specHash: specs[i]! },
      ...(removing ? { removing } : {}),
      ...(sources?.length ? { sources } : {}),
    })
  )
  const plan = planManifest(current?.entries ?? [], wanted)
  const counts = { added: plan.added, changed: plan.changed, removed: plan.removed.length }
  if (planChanges(plan) + plan.resourced === 0) {
    const manifest = current ?? { mailbox, version: 0, entries: [] }
    return { manifest, ...counts, written: false }
  }
  // Changed copies keep their reported state: their MODIFIED events carry it.
  const changedCopies = plan.items.flatMap(({ old, same }) => (old && !same ? [old] : []))
  const [issued, states] = await Promise.all([
    issueRv(ctx),
    changedCopies.length > 0
      ? getCopyStates(ctx, mailbox, changedCopies)
      : new Map<string, StoredCopyState>(),
  ])
  const { rv } = issued
  const ts = ctx.now()
  const stamp = { rv, created: timestamp(now), uid: () => crypto.randomUUID() }
  const { entries, changes } = stampManifest(plan, stamp)
  for (const change of changes) {
    const state = change.type === 'MODIFIED' ? states.get(entryKey(change.entry)) : undefined
    if (state?.uid === change.entry.uid) change.state = state
  }
  const [data, logItems] = await Promise.all([
    encodeEntries(entries, mailbox),
    projectionLogItems(ctx, mailbox, changes, { rv, ts }),
  ])
  const condition =
    expected === null
      ? { ConditionExpression: 'attribute_not_exists(pk)' }
      : {
          ConditionExpression: 'ver = :expected',
          ExpressionAttributeValues: { ':expected': n(expected) },
        }
  try {
    await ctx.client.send(
      new PutItemCommand({
        TableName: ctx.table,
        Item: { ...manifestKey(mailbox), ver: n(rv), ts: n(ts), body: b(data) },
        ...condition,
      })
    )
  } catch (e) {
    if (!isConditionalFailure(e)) throw e
    throw manifestConflict(mailbox, `the manifest changed since version ${expected}`)
  }
  await putItems(ctx, landedNow(ctx, logItems))
  await logAgainWhileLate(ctx, issued, (at) => projectionLogItems(ctx, mailbox, changes, at))
  return { manifest: { mailbox, version: rv, entries }, ...counts, written: true }
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
    await putItems(ctx, landedNow(ctx, logItems))
    await logAgainWhileLate(ctx, issued, logAt)
    return
  }
  throw manifestConflict(mailbox, 'the manifest kept changing while it was being deleted')
}
