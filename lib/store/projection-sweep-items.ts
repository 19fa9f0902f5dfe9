/**
 * One Scan page of the projection sweep (projection-sweep.ts), item by item in Scan order:
 * every hash a manifest, a shared manifest or a projection change-log entry references goes into
 * the pass's filter, and so does every shared manifest a mailbox belongs to (`sm:<id>`); in the
 * `collect` stage an old body or shared manifest (last confirmed before the pass's cut) the
 * filter does not hold becomes a candidate, and a copy state written before the pass began is deleted when the
 * current manifest of its mailbox (read consistently after the state was read) does not hold its
 * copy with its uid: uids are never reused, so that copy is gone for good, and the delete is
 * conditional on the state's rv, so a concurrent write keeps it. Reading a manifest or deleting a
 * state first asks `room`; without room the page stops there and says after which item.
 */
import { DeleteItemCommand } from '@aws-sdk/client-dynamodb'
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
import type { Bloom } from './bloom.ts'
import type { StoreContext } from './context.ts'
import { decodeChanges, decodeEntries } from './projection-codec.ts'
import { entryKey } from './projection-diff.ts'
import { readManifest } from './projection-manifest.ts'
import { STATE_PK_PREFIX } from './projection-state.ts'
import { SHARED_PK_PREFIX } from './shared-manifest.ts'
import { cutBefore, type SweepCursor } from './sweep.ts'

export type PageContext = {
  stage: 'mark' | 'collect'
  bloom: Bloom
  candidates: Set<string>
  maxCandidates: number
  /** When the pass began (ms): states written since are left alone. */
  began: number
  /** The pass's cut (ms): what was last confirmed before it may go. */
  cut: number
  /** Copies (`<entryKey> <uid>`) of the manifests read during this step, by mailbox. */
  manifests: Map<string, Set<string>>
  room: (cost: number) => boolean
}

export type PageOutcome = {
  states: number
  /** Set when the page stopped early: resume after this key (undefined: the page's start). */
  cut?: { after: SweepCursor | undefined }
}

export async function deleteIf(
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

/** The filter's name for a shared manifest a mailbox belongs to (bodies go by bare hash). */
export const sharedMark = (id: string) => `${SHARED_MARK}${id}`
const SHARED_MARK = 'sm:'
export const isSharedMark = (candidate: string) => candidate.startsWith(SHARED_MARK)
export const sharedOfMark = (candidate: string) => candidate.slice(SHARED_MARK.length)

async function markReferences(item: Item, bloom: Bloom): Promise<void> {
  const body = optBytes(item, 'body')
  const pk = readString(item, 'pk')
  const shr = optString(item, 'shr')
  if (shr !== undefined) bloom.add(sharedMark(shr))
  if ((pk.startsWith('mf#') || pk.startsWith(SHARED_PK_PREFIX)) && body) {
    for (const e of await decodeEntries(body)) bloom.add(e.hash)
    return
  }
  const chg = optBytes(item, 'chg')
  if (chg) for (const c of await decodeChanges(chg)) bloom.add(c.entry.hash)
}

async function copiesOf(ctx: StoreContext, mailbox: string): Promise<Set<string>> {
  const manifest = await readManifest(ctx, mailbox)
  return new Set((manifest?.entries ?? []).map((e) => `${entryKey(e)} ${e.uid}`))
}

/** Handles one copy state; false when there was no room to do so. */
async function sweepState(
  ctx: StoreContext,
  item: Item,
  page: PageContext,
  out: PageOutcome
): Promise<boolean> {
  if ((optNumber(item, 'ts') ?? 0) >= page.began) return true
  const mailbox = readString(item, 'pk').slice(STATE_PK_PREFIX.length)
  let copies = page.manifests.get(mailbox)
  if (!copies) {
    if (!page.room(2)) return false
    copies = await copiesOf(ctx, mailbox)
    page.manifests.set(mailbox, copies)
  }
  const sk = readString(item, 'sk')
  if (copies.has(`${sk} ${optString(item, 'uid') ?? ''}`)) return true
  if (!page.room(1)) return false
  const rv = n(optNumber(item, 'rv') ?? 0)
  out.states += await deleteIf(ctx, { pk: s(readString(item, 'pk')), sk: s(sk) }, 'rv = :rv', {
    ':rv': rv,
  })
  return true
}

export async function sweepPage(
  ctx: StoreContext,
  items: Item[],
  page: PageContext
): Promise<PageOutcome> {
  const out: PageOutcome = { states: 0 }
  for (const [at, item] of items.entries()) {
    const pk = readString(item, 'pk')
    if (page.stage === 'collect' && pk.startsWith(STATE_PK_PREFIX)) {
      if (!(await sweepState(ctx, item, page, out))) return { ...out, cut: cutBefore(items, at) }
      continue
    }
    const collecting = page.stage === 'collect' && page.candidates.size < page.maxCandidates
    if (pk.startsWith('pb#')) {
      const hash = pk.slice('pb#'.length)
      if (collecting && !page.bloom.has(hash)) page.candidates.add(hash)
      continue
    }
    await markReferences(item, page.bloom)
    // A shared manifest no mailbox names, last confirmed before the cut (it keeps its bodies
    // marked until it goes).
    if (collecting && pk.startsWith(SHARED_PK_PREFIX)) {
      const mark = sharedMark(pk.slice(SHARED_PK_PREFIX.length))
      const old = (optNumber(item, 'ts') ?? 0) < page.cut
      if (old && !page.bloom.has(mark)) page.candidates.add(mark)
    }
  }
  return out
}
