/**
 * Writing copy states (projection-state.ts). A call reads the manifest once (a state is only for a
 * copy that is still there with the state's uid), encodes every state first (so a too-large one
 * fails the call before anything is written), takes ONE resourceVersion, puts each state item with
 * a condition on the stored state's rv (absent when `expectedRv` is null), then puts one change-log
 * item per touched group/resource listing the written copies as MODIFIED, each carrying its new
 * state, so watches of the mailbox see the copy with its new status. The entry in the change is
 * the manifest's as read: a state write racing a manifest write can therefore repeat the previous
 * body in its event (the next event or a relist heals it). Known limit as for objects: a crash
 * between the state puts and the log items loses those watch events.
 * With the log items goes the mailbox's report mark (projection-marks.ts), so a reader that kept
 * what it read of the mailbox learns that a state changed without reading the states again.
 * Request cost of a call writing N states in K group/resources: 1 GetItem, 1 UpdateItem, N
 * conditional PutItems (in parallel) and ceil((K + 1) / 25) BatchWriteItem.
 */
import { PutItemCommand } from '@aws-sdk/client-dynamodb'
import { badRequest } from '../errors.ts'
import { b, type Item, isConditionalFailure, n, s } from './attrs.ts'
import { putItems } from './batch-put.ts'
import type { StoreContext } from './context.ts'
import { checkObjectKey } from './keys.ts'
import { issueRv, logAgainWhileLate } from './late-entries.ts'
import { encodeState, type ProjectionChange } from './projection-codec.ts'
import { entryKey } from './projection-diff.ts'
import { landedNow, projectionLogItems } from './projection-log.ts'
import { checkMailbox, readManifest, type ShareHints } from './projection-manifest.ts'
import { reportMarkItem } from './projection-marks.ts'
import { stateKey, stateKeyFits } from './projection-state.ts'
import type { CopyStateWrite, CopyStateWriteResult, ManifestEntry } from './projection-types.ts'

type Live = { write: CopyStateWrite; entry: ManifestEntry; data: Uint8Array }

function checkWrites(mailbox: string, writes: readonly CopyStateWrite[]): void {
  const seen = new Set<string>()
  for (const { key } of writes) {
    checkObjectKey({ cluster: mailbox, ...key })
    const k = entryKey(key)
    if (!stateKeyFits(mailbox, key))
      throw badRequest(`the state of ${k.slice(0, 300)}… is too long a key to be stored`)
    if (seen.has(k)) throw badRequest(`the state of ${k} is written twice in one call`)
    seen.add(k)
  }
}

async function putState(
  ctx: StoreContext,
  mailbox: string,
  live: Live,
  at: { rv: number; ts: number }
): Promise<boolean> {
  const { key, state, expectedRv } = live.write
  const condition =
    expectedRv === null
      ? { ConditionExpression: 'attribute_not_exists(pk)' }
      : {
          ConditionExpression: 'rv = :expected',
          ExpressionAttributeValues: { ':expected': n(expectedRv) },
        }
  const item: Item = {
    ...stateKey(mailbox, key),
    uid: s(state.uid),
    rv: n(at.rv),
    ts: n(at.ts),
    body: b(live.data),
  }
  try {
    await ctx.client.send(new PutItemCommand({ TableName: ctx.table, Item: item, ...condition }))
    return true
  } catch (e) {
    if (!isConditionalFailure(e)) throw e
    return false
  }
}

export async function putCopyStates(
  ctx: StoreContext,
  mailbox: string,
  writes: readonly CopyStateWrite[],
  hints?: ShareHints
): Promise<CopyStateWriteResult[]> {
  checkMailbox(mailbox)
  checkWrites(mailbox, writes)
  if (writes.length === 0) return []
  const manifest = await readManifest(ctx, mailbox, hints)
  const entries = new Map((manifest?.entries ?? []).map((e) => [entryKey(e), e]))
  const live = await Promise.all(
    writes.map(async (write): Promise<Live | undefined> => {
      const entry = entries.get(entryKey(write.key))
      if (entry?.uid !== write.state.uid) return undefined
      const what = `the state of ${entryKey(write.key)} in mailbox ${mailbox}`
      return { write, entry, data: await encodeState(write.state, what) }
    })
  )
  if (live.every((l) => l === undefined)) return writes.map(() => ({ outcome: 'gone' }))
  const issued = await issueRv(ctx)
  const at = { rv: issued.rv, ts: ctx.now() }
  const changeOf = (l: Live): ProjectionChange => ({
    type: 'MODIFIED',
    entry: l.entry,
    state: { ...l.write.state, rv: at.rv },
  })
  const all = live.filter((l) => l !== undefined)
  // Built before any put, so a change list too large to log fails the call with nothing written.
  const allItems = await projectionLogItems(ctx, mailbox, all.map(changeOf), at)
  const done = await Promise.all(live.map((l) => (l ? putState(ctx, mailbox, l, at) : false)))
  const results: CopyStateWriteResult[] = []
  const changes: ProjectionChange[] = []
  live.forEach((l, i) => {
    if (!l) results.push({ outcome: 'gone' })
    else if (!done[i]) results.push({ outcome: 'conflict' })
    else {
      const change = changeOf(l)
      results.push({ outcome: 'written', state: change.state!, entry: l.entry })
      changes.push(change)
    }
  })
  // The mailbox's report mark rides with the log items, after the states (projection-marks.ts).
  const mark = reportMarkItem(mailbox, at.rv)
  if (changes.length === all.length) await putItems(ctx, [...landedNow(ctx, allItems), mark])
  else if (changes.length > 0) {
    const items = await projectionLogItems(ctx, mailbox, changes, at)
    await putItems(ctx, [...landedNow(ctx, items), mark])
  }
  if (changes.length > 0)
    await logAgainWhileLate(ctx, issued, (again) =>
      projectionLogItems(ctx, mailbox, changes, again)
    )
  return results
}
