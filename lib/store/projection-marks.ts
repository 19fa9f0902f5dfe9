/**
 * Mailbox marks: what a reader that keeps what it read of many mailboxes (the summarize step's
 * pages, functions/reconcile-summarize/pages/) compares to learn, for a hundred mailboxes per
 * request, whether anything it read there changed since — without reading the copies again.
 * - The content version: the manifest's `ver`, or its shared manifest's when that is later
 *   (projection-types.ts `contentVersion`); it moves with every manifest write.
 * - The report mark: item pk `pm#<mailbox>`, sk `-`, with `srv` (the resourceVersion of the last
 *   copy-state write, put in the same BatchWriteItem as that write's change-log items, after the
 *   states: projection-state-write.ts) and `tch` (a count raised by `touchMailbox`, one
 *   UpdateItem, after upsynced objects were written: lib/edge/upsync.ts). A state write puts the
 *   whole item, so its `tch` goes; the pair of values still differs after every write, which is
 *   all a reader compares (never their order).
 * A reader records the marks before it reads the states (a state written after its read then moves
 * the mark after its record), and the content version with the manifest it read. Known limit, as
 * for the change log: a process that dies between the state puts and the mark loses the move
 * (readers bound how long they trust a mark). The mark goes with the mailbox's manifest.
 */
import { DeleteItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb'
import { type Item, n, optNumber, optString, readNumber, readString, s } from './attrs.ts'
import { getItems } from './batch-get.ts'
import type { StoreContext } from './context.ts'
import { manifestPk, SINGLE_SK } from './keys.ts'
import { checkMailbox, manifestKey } from './projection-manifest.ts'
import type { MailboxMark } from './projection-types.ts'
import { SHARED_PK_PREFIX, sharedKey } from './shared-manifest.ts'

const MARK_PK_PREFIX = 'pm#'

const markKey = (mailbox: string): Item => ({
  pk: s(`${MARK_PK_PREFIX}${mailbox}`),
  sk: s(SINGLE_SK),
})

/** The mark item a copy-state write at `rv` puts with its change-log items. */
export const reportMarkItem = (mailbox: string, rv: number): Item => ({
  ...markKey(mailbox),
  srv: n(rv),
})

/** Moves the mailbox's report mark (something it reports changed outside its copy states). */
export async function touchMailbox(ctx: StoreContext, mailbox: string): Promise<void> {
  checkMailbox(mailbox)
  await ctx.client.send(
    new UpdateItemCommand({
      TableName: ctx.table,
      Key: markKey(mailbox),
      UpdateExpression: 'ADD tch :one',
      ExpressionAttributeValues: { ':one': n(1) },
    })
  )
}

export async function deleteReportMark(ctx: StoreContext, mailbox: string): Promise<void> {
  checkMailbox(mailbox)
  await ctx.client.send(new DeleteItemCommand({ TableName: ctx.table, Key: markKey(mailbox) }))
}

const reportsOf = (item: Item) => `${optNumber(item, 'srv') ?? 0}.${optNumber(item, 'tch') ?? 0}`

/**
 * The marks of `mailboxes` (each valid: BadRequest otherwise), by mailbox: one BatchGetItem per 50
 * mailboxes (the manifest's version and shared id, the report mark), and one per 100 shared
 * manifests their versions; with `content` false the report marks alone, one read per 100.
 */
export async function readMailboxMarks(
  ctx: StoreContext,
  mailboxes: readonly string[],
  content = true
): Promise<Map<string, MailboxMark>> {
  const unique = [...new Set(mailboxes)]
  for (const m of unique) checkMailbox(m)
  const keys = unique.flatMap((m) => (content ? [manifestKey(m), markKey(m)] : [markKey(m)]))
  const items = await getItems(ctx, keys, 'pk, ver, shr, srv, tch')
  const out = new Map<string, MailboxMark>(unique.map((m) => [m, {}]))
  const sharedOf = new Map<string, string>()
  const mf = manifestPk('')
  for (const item of items) {
    const pk = readString(item, 'pk')
    if (pk.startsWith(MARK_PK_PREFIX)) {
      const at = out.get(pk.slice(MARK_PK_PREFIX.length))
      if (at) at.reports = reportsOf(item)
    } else if (pk.startsWith(mf)) {
      const mailbox = pk.slice(mf.length)
      const at = out.get(mailbox)
      if (!at) continue
      at.content = readNumber(item, 'ver')
      const shared = optString(item, 'shr')
      if (shared !== undefined) sharedOf.set(mailbox, shared)
    }
  }
  const ids = [...new Set(sharedOf.values())]
  if (ids.length === 0) return out
  const shared = new Map<string, number>()
  for (const item of await getItems(ctx, ids.map(sharedKey), 'pk, ver'))
    shared.set(readString(item, 'pk').slice(SHARED_PK_PREFIX.length), readNumber(item, 'ver'))
  for (const [mailbox, id] of sharedOf) {
    const at = out.get(mailbox)
    const version = shared.get(id)
    if (at?.content !== undefined && version !== undefined)
      at.content = Math.max(at.content, version)
  }
  return out
}
