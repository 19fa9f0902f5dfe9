/**
 * Writing shared manifests (shared-manifest.ts) for a batch of manifest writes. The writes given
 * the same `share` key whose live copies have the same keys, versions and sources name one shared
 * manifest; within a batch they must also want the same content, or the ones that differ from
 * the first are written as mailboxes of their own. Each shared manifest the batch names is read
 * (one BatchGetItem for all), planned like a manifest (its keys never change, only its copies'
 * content), and, when new or changed, put with its own rv and a condition on its version, before
 * any member's manifest: a member reading its shared manifest always finds it. A change of
 * content logs the changed copies in the shared manifest's own change-log partition
 * (`l#<shared-id>#<group>/<resource>`), which the watch of each member reads (shared-feed.ts), and
 * in the cross-space feed, whose readers expand it to every member (shared-members.ts);
 * a new shared manifest logs nothing, since its members' own writes log their copies. A condition
 * that fails (another batch wrote it meanwhile) is read and planned once more: a writer that wants
 * what is now stored has nothing to write, otherwise its writes fail with Conflict and are retried.
 */
import { PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb'
import { conflict } from '../errors.ts'
import { timestamp } from '../kube/time.ts'
import { b, type Item, isConditionalFailure, n } from './attrs.ts'
import type { StoreContext } from './context.ts'
import { issueRvs } from './late-entries.ts'
import { encodeEntries, type ProjectionChange } from './projection-codec.ts'
import {
  entryKey,
  type ManifestPlan,
  planChanges,
  planManifest,
  stampManifest,
  type WantedEntry,
} from './projection-diff.ts'
import { projectionLogItems } from './projection-log.ts'
import { readShared, type SharedManifest, sharedId, sharedKey } from './shared-manifest.ts'

/** A shared manifest of the batch: as read and as after the batch. */
export type ShareGroup = {
  id: string
  /** The shared manifest the members are written against (after this batch's write, if any). */
  next: SharedManifest
  /** The version it was read at (0: absent). */
  read: number
  /** Whether this batch wrote it. */
  written: boolean
  /** When its rv was asked for (late-entries.ts), for its log items. */
  askedAt: number
  /** Its change-log items (a change of content), to go out with the members' items. */
  items: Item[]
  changes: ProjectionChange[]
}

/** A write of the batch as the sharing sees it. */
export type ShareCandidate = { share?: string; wanted: readonly WantedEntry[] }

const wantedText = (w: WantedEntry) =>
  `${entryKey(w)}=${w.hash}/${w.specHash}@${w.version}:${JSON.stringify(w.sources ?? [])}`

/** The live (not removing) entries of a write. */
export const liveOf = (wanted: readonly WantedEntry[]) => wanted.filter((w) => !w.removing)

/**
 * The shared id of each candidate (undefined: written as its own): candidates with a share key and
 * live copies, whose live copies equal those of the first candidate (in the batch's order) naming
 * the same id. The ids are hashed first, then given in order, so which of two candidates wanting
 * different content under one id gets it never depends on which hash finished first.
 */
export async function shareIds(
  candidates: readonly ShareCandidate[]
): Promise<(string | undefined)[]> {
  // Mailboxes of one group want the same copies: each distinct set is hashed once per batch.
  const ids = new Map<string, Promise<string>>()
  const hashed = await Promise.all(
    candidates.map(async ({ share, wanted }) => {
      const live = liveOf(wanted)
      if (share === undefined || live.length === 0) return undefined
      const text = live.map(wantedText).sort().join('\n')
      const memo = `${share}\n--\n${text}`
      let hashing = ids.get(memo)
      if (!hashing) {
        hashing = sharedId(share, live)
        ids.set(memo, hashing)
      }
      return { id: await hashing, text }
    })
  )
  const first = new Map<string, string>()
  return hashed.map((h) => {
    if (!h) return undefined
    const seen = first.get(h.id)
    if (seen === undefined) first.set(h.id, h.text)
    return seen === undefined || seen === h.text ? h.id : undefined
  })
}

/** A shared manifest to write: its id, as read (absent: new) and its plan. */
type SharedWrite = { id: string; read?: SharedManifest; plan: ManifestPlan }

async function putShared(
  ctx: StoreContext,
  { id, read, plan }: SharedWrite,
  at: { rv: number; ts: number; now: Date; askedAt: number }
): Promise<ShareGroup> {
  const stamp = { rv: at.rv, created: timestamp(at.now), uid: () => crypto.randomUUID() }
  const { entries, changes } = stampManifest(plan, stamp)
  const data = await encodeEntries(entries, `shared ${id}`)
  const condition = read
    ? {
        ConditionExpression: 'ver = :expected',
        ExpressionAttributeValues: { ':expected': n(read.version) },
      }
    : { ConditionExpression: 'attribute_not_exists(pk)' }
  await ctx.client.send(
    new PutItemCommand({
      TableName: ctx.table,
      Item: { ...sharedKey(id), ver: n(at.rv), ts: n(at.ts), body: b(data) },
      ...condition,
    })
  )
  // A new shared manifest has no members yet: theirs are logged by their own writes.
  const logged = read ? changes : []
  const items = logged.length > 0 ? await projectionLogItems(ctx, id, logged, at) : []
  const next = { id, version: at.rv, entries }
  const { askedAt } = at
  return { id, next, read: read?.version ?? 0, written: true, askedAt, items, changes: logged }
}

function planFor(current: SharedManifest | undefined, live: WantedEntry[]): ManifestPlan {
  const plan = planManifest(current?.entries ?? [], live)
  if (current && (plan.added > 0 || plan.removed.length > 0)) {
    // The id names the keys: a stored manifest with other keys is not this id's.
    throw conflict('manifests', { name: current.id }, 'the shared manifest holds other copies')
  }
  return plan
}

/**
 * Brings the shared manifests named by `ids` (with the live entries each must hold) to that
 * content: one read for all, one counter request for those that change, a conditional put each.
 * A group whose write fails is missing from the result, with its error in `failed`.
 */
export async function writeShared(
  ctx: StoreContext,
  wants: ReadonlyMap<string, WantedEntry[]>,
  now: Date
): Promise<{ groups: Map<string, ShareGroup>; failed: Map<string, unknown> }> {
  const groups = new Map<string, ShareGroup>()
  const failed = new Map<string, unknown>()
  let pending = [...wants.keys()]
  for (let round = 0; round < 2 && pending.length > 0; round++) {
    const stored = await readShared(ctx, pending)
    const toWrite: SharedWrite[] = []
    for (const id of pending) {
      const current = stored.get(id)
      try {
        const plan = planFor(current, wants.get(id) ?? [])
        if (current && planChanges(plan) + plan.resourced === 0) {
          await confirm(ctx, current)
          const read = current.version
          const unchanged = { written: false, askedAt: ctx.now(), items: [], changes: [] }
          groups.set(id, { id, next: current, read, ...unchanged })
        } else toWrite.push({ id, ...(current ? { read: current } : {}), plan })
      } catch (error) {
        failed.set(id, error)
      }
    }
    if (toWrite.length === 0) break
    const { rvs, askedAt } = await issueRvs(ctx, toWrite.length)
    const ts = ctx.now()
    const again: string[] = []
    await Promise.all(
      toWrite.map(async (write, i) => {
        const { id } = write
        try {
          const at = { rv: rvs[i] as number, ts, now, askedAt }
          groups.set(id, await putShared(ctx, write, at))
        } catch (error) {
          if (isConditionalFailure(error) && round === 0) again.push(id)
          else failed.set(id, isConditionalFailure(error) ? sharedConflict(id) : error)
        }
      })
    )
    pending = again
  }
  return { groups, failed }
}

/**
 * Keeps a shared manifest a batch writes members against from the sweep: its `ts` moves to now
 * when it was last confirmed half a retention ago or more (as bodies are, projection-bodies.ts),
 * on the condition that it was not written meanwhile (a write confirms it too).
 */
async function confirm(ctx: StoreContext, shared: SharedManifest): Promise<void> {
  if (ctx.now() - (shared.ts ?? 0) < ctx.retentionMs / 2) return
  try {
    await ctx.client.send(
      new UpdateItemCommand({
        TableName: ctx.table,
        Key: sharedKey(shared.id),
        UpdateExpression: 'SET ts = :now',
        ConditionExpression: 'ver = :ver',
        ExpressionAttributeValues: { ':now': n(ctx.now()), ':ver': n(shared.version) },
      })
    )
  } catch (e) {
    if (!isConditionalFailure(e)) throw e
  }
}

export const sharedConflict = (id: string) =>
  conflict('manifests', { name: id }, 'the shared manifest kept changing while it was written')
