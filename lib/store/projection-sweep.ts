/**
 * Removing projection items nothing needs any more. One Scan collects bodies whose `ts` (last
 * confirmed by a writer) is older than the store's log retention, every hash referenced by a
 * manifest or by a projection change-log entry (so DELETED events can still be rendered), the
 * uids of every manifest's copies, and the copy states (projection-state.ts). When the Scan
 * completed, each unreferenced old body is deleted with the condition that its `ts` is still old:
 * a writer that refreshed it meanwhile (projection-bodies.ts) keeps it, and one that writes it
 * after the delete puts it back. A copy state is deleted when no manifest holds its copy (key and
 * uid) and it was written before the Scan began, on the condition that its rv is unchanged: a
 * state is only written for a copy the manifest holds, so one written before the Scan whose copy
 * the Scan did not see belongs to a copy that was removed (uids are never reused), and a state
 * written since is left for the next sweep. The store's own clock and retention are used, never
 * the sweep's overrides, because writers' body caches rely on them.
 */
import { DeleteItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb'
import {
  type Item,
  isConditionalFailure,
  n,
  optBytes,
  optNumber,
  optString,
  readString,
  s,
} from './attrs.ts'
import type { StoreContext } from './context.ts'
import { bodyPk, SINGLE_SK } from './keys.ts'
import { decodeChanges, decodeEntries } from './projection-codec.ts'
import { entryKey } from './projection-diff.ts'
import { STATE_PK_PREFIX } from './projection-state.ts'

const SCAN_PAGE = 1000

type Seen = {
  old: string[]
  used: Set<string>
  /** `<mailbox> <entryKey> <uid>` of every copy a manifest holds. */
  copies: Set<string>
  states: { key: Item; copy: string; rv: number; ts: number }[]
}

async function collect(item: Item, seen: Seen): Promise<void> {
  const pk = readString(item, 'pk')
  if (pk.startsWith('pb#')) {
    seen.old.push(pk.slice('pb#'.length))
    return
  }
  if (pk.startsWith(STATE_PK_PREFIX)) {
    const sk = readString(item, 'sk')
    const copy = `${pk.slice(STATE_PK_PREFIX.length)} ${sk} ${optString(item, 'uid') ?? ''}`
    const at = { rv: optNumber(item, 'rv') ?? 0, ts: optNumber(item, 'ts') ?? 0 }
    seen.states.push({ key: { pk: s(pk), sk: s(sk) }, copy, ...at })
    return
  }
  const body = optBytes(item, 'body')
  if (pk.startsWith('mf#') && body) {
    const mailbox = pk.slice('mf#'.length)
    for (const e of await decodeEntries(body)) {
      seen.used.add(e.hash)
      seen.copies.add(`${mailbox} ${entryKey(e)} ${e.uid}`)
    }
    return
  }
  const chg = optBytes(item, 'chg')
  if (chg) for (const c of await decodeChanges(chg)) seen.used.add(c.entry.hash)
}

async function deleteIf(
  ctx: StoreContext,
  key: Item,
  condition: string,
  values: Item
): Promise<number> {
  try {
    await ctx.client.send(
      new DeleteItemCommand({
        TableName: ctx.table,
        Key: key,
        ConditionExpression: condition,
        ExpressionAttributeValues: values,
      })
    )
    return 1
  } catch (e) {
    if (!isConditionalFailure(e)) throw e
    return 0
  }
}

/**
 * Deletes unreferenced bodies older than the retention and the states of copies that are gone;
 * returns how many bodies.
 */
export async function sweepBodies(ctx: StoreContext, maxPages = Number.POSITIVE_INFINITY) {
  const began = ctx.now()
  const cut = began - ctx.retentionMs
  const seen: Seen = { old: [], used: new Set(), copies: new Set(), states: [] }
  let start: Item | undefined
  let pages = 0
  do {
    const out = await ctx.client.send(
      new ScanCommand({
        TableName: ctx.table,
        Limit: SCAN_PAGE,
        ExclusiveStartKey: start,
        FilterExpression:
          '(begins_with(pk, :pb) AND ts < :cut) OR begins_with(pk, :mf) OR begins_with(pk, :ps) OR attribute_exists(chg)',
        ProjectionExpression: 'pk, sk, #b, chg, uid, rv, ts',
        ExpressionAttributeNames: { '#b': 'body' },
        ExpressionAttributeValues: {
          ':pb': s('pb#'),
          ':mf': s('mf#'),
          ':ps': s(STATE_PK_PREFIX),
          ':cut': n(cut),
        },
        ConsistentRead: true,
      })
    )
    for (const item of out.Items ?? []) await collect(item, seen)
    start = out.LastEvaluatedKey
    pages++
  } while (start && pages < maxPages)
  if (start) return 0
  const bodies = seen.old
    .filter((h) => !seen.used.has(h))
    .map((h) =>
      deleteIf(ctx, { pk: s(bodyPk(h)), sk: s(SINGLE_SK) }, 'ts < :cut', { ':cut': n(cut) })
    )
  const states = seen.states
    .filter((st) => st.ts < began && !seen.copies.has(st.copy))
    .map((st) => deleteIf(ctx, st.key, 'rv = :rv', { ':rv': n(st.rv) }))
  const [deleted] = await Promise.all([Promise.all(bodies), Promise.all(states)])
  return deleted.reduce<number>((sum, x) => sum + x, 0)
}
