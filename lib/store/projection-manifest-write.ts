/**
 * Manifest writes (projection-types.ts `writeManifest` / `writeManifests`), one or many mailboxes
 * at a time. Each write is checked, its bodies stored (projection-bodies.ts) and planned against
 * the manifest it expects (the caller's `known` one, else read: the reads of one batch in one
 * BatchGetItem per 100); a write whose plan changes nothing ends there, unwritten. The writes that
 * change something share the rest: ONE counter request issues their resourceVersions (issueRvs),
 * ONE BatchGetItem per 100 reads the states of the copies they change (their MODIFIED events
 * keep the reported status), each manifest is put with its own condition on `ver` (Conflict when
 * it moved since the planned version; then nothing of that write is logged), and the change-log
 * items of every write that landed go out together, 25 per BatchWriteItem. So a batch of N
 * changed mailboxes costs N conditional PutItems plus a handful of shared requests, where N
 * single writes cost about five requests each. Outcomes are per write, in input order: one
 * write's Conflict, BadRequest or 413 never fails the others. Known limit, as for objects: a crash
 * between the manifest puts and their log items loses those watch events (a relist heals it).
 */
import { PutItemCommand } from '@aws-sdk/client-dynamodb'
import { timestamp } from '../kube/time.ts'
import { b, type Item, isConditionalFailure, n } from './attrs.ts'
import { deleteKeys } from './batch-delete.ts'
import { putItems } from './batch-put.ts'
import type { StoreContext } from './context.ts'
import { issueRvs, logAllAgainWhileLate } from './late-entries.ts'
import type { BodyCache } from './projection-bodies.ts'
import { encodeEntries, type ProjectionChange } from './projection-codec.ts'
import { entryKey, stampManifest } from './projection-diff.ts'
import { landedNow, projectionLogItems } from './projection-log.ts'
import { manifestConflict, manifestKey } from './projection-manifest.ts'
import { checkAll, counts, type Planned, planAll } from './projection-manifest-plan.ts'
import { getCopyStatesOf } from './projection-state.ts'
import type {
  Manifest,
  ManifestWrite,
  ManifestWriteOutcome,
  ManifestWriteRequest,
  ManifestWriteResult,
  StoredCopyState,
} from './projection-types.ts'
import { membershipAttrs, readShared } from './shared-manifest.ts'
import type { ShareGroup } from './shared-manifest-write.ts'
import { memberItem, memberKey } from './shared-members.ts'
import { movedSince, type WrittenMember } from './shared-membership.ts'

/** Puts one planned manifest at `rv`; its log items, or the write's failure. */
async function put(
  ctx: StoreContext,
  p: Planned,
  at: { rv: number; ts: number },
  states: Map<string, StoredCopyState> | undefined
): Promise<{ result: ManifestWriteResult; changes: ProjectionChange[]; items: Item[] }> {
  const { mailbox, w, current, plan } = p
  const stamp = { rv: at.rv, created: timestamp(w.now), uid: () => crypto.randomUUID() }
  const stamped = stampManifest(plan, stamp)
  const { entries, changes } = p.share ? p.share.finish(stamped) : stamped
  if (p.relog) {
    const logged = new Set(changes.map((c) => entryKey(c.entry)))
    for (const entry of entries) {
      const key = entryKey(entry)
      if (p.relog.has(key) && !logged.has(key)) changes.push({ type: 'MODIFIED', entry })
    }
  }
  for (const change of changes) {
    const state = change.type === 'MODIFIED' ? states?.get(entryKey(change.entry)) : undefined
    if (state?.uid === change.entry.uid) change.state = state
  }
  const [data, items] = await Promise.all([
    encodeEntries(entries, mailbox),
    projectionLogItems(ctx, mailbox, changes, at),
  ])
  const expected = current?.version ?? null
  const condition =
    expected === null
      ? { ConditionExpression: 'attribute_not_exists(pk)' }
      : {
          ConditionExpression: 'ver = :expected',
          ExpressionAttributeValues: { ':expected': n(expected) },
        }
  const membership = p.share?.membership(at.rv)
  try {
    await ctx.client.send(
      new PutItemCommand({
        TableName: ctx.table,
        Item: {
          ...manifestKey(mailbox),
          ...{ ver: n(at.rv), ts: n(at.ts), body: b(data) },
          ...(membership ? membershipAttrs(membership, entries) : {}),
        },
        ...condition,
      })
    )
  } catch (e) {
    if (!isConditionalFailure(e)) throw e
    throw manifestConflict(mailbox, `the manifest changed since version ${expected}`)
  }
  const manifest: Manifest = {
    mailbox,
    version: at.rv,
    entries,
    ...(membership ? { shared: { membership, version: p.share?.sharedVersion ?? 0 } } : {}),
  }
  const effective = p.share?.effective() ?? plan
  return { result: { manifest, ...counts(effective), written: true }, changes, items }
}

export async function writeManifests(
  ctx: StoreContext,
  cache: BodyCache,
  requests: readonly ManifestWriteRequest[]
): Promise<ManifestWriteOutcome[]> {
  const out: ManifestWriteOutcome[] = new Array(requests.length)
  const checked = await checkAll(ctx, cache, requests, out)
  const { planned, groups } = await planAll(ctx, checked, out)
  const sharedLogs = groups.filter((g) => g.items.length > 0)
  if (planned.length === 0) {
    await logShared(ctx, sharedLogs)
    return out
  }
  // Changed copies keep their reported state: their MODIFIED events carry it.
  const wants = planned.map(({ mailbox, plan, relog }) => ({
    mailbox,
    keys: plan.items.flatMap(({ old, same }) =>
      old && (!same || relog?.has(entryKey(old))) ? [old] : []
    ),
  }))
  const [issued, states] = await Promise.all([
    issueRvs(ctx, planned.length),
    wants.some((x) => x.keys.length > 0) ? getCopyStatesOf(ctx, wants) : new Map(),
  ])
  const ts = ctx.now()
  const landed: { changes: ProjectionChange[]; mailbox: string; items: Item[]; p: Planned }[] = []
  await Promise.all(
    planned.map(async (p, i) => {
      try {
        const at = { rv: issued.rvs[i] as number, ts }
        const done = await put(ctx, p, at, states.get(p.mailbox))
        out[p.index] = { ok: true, result: done.result }
        landed.push({ ...done, mailbox: p.mailbox, p })
      } catch (error) {
        out[p.index] = { ok: false, error }
      }
    })
  )
  const members = memberChanges(landed, out)
  await Promise.all([
    putItems(ctx, [
      ...landedNow(ctx, [...landed.flatMap((l) => l.items), ...sharedLogs.flatMap((g) => g.items)]),
      ...members.put,
    ]),
    members.gone.length > 0 ? deleteKeys(ctx, members.gone) : undefined,
  ])
  const askedAt = Math.min(issued.askedAt, ...sharedLogs.map((g) => g.askedAt))
  await logAllAgainWhileLate(ctx, askedAt, [
    ...landed.map(
      ({ mailbox, changes }) =>
        (at: { rv: number; ts: number }) =>
          projectionLogItems(ctx, mailbox, changes, at)
    ),
    ...sharedLogs.map(
      (g) => (at: { rv: number; ts: number }) => projectionLogItems(ctx, g.id, g.changes, at)
    ),
  ])
  await recheckMembers(
    ctx,
    landed.flatMap(({ mailbox, p }) => {
      const outcome = out[p.index]
      if (!p.share || !outcome?.ok) return []
      const { entries } = outcome.result.manifest
      const { membership } = outcome.result.manifest.shared ?? {}
      return membership ? [{ mailbox, entries, membership }] : []
    })
  )
  return out
}

/**
 * Reads the written members' shared manifests once more and logs, after each member's write, the
 * copies another batch moved meanwhile (shared-membership.ts `movedSince`).
 */
async function recheckMembers(ctx: StoreContext, written: readonly WrittenMember[]) {
  if (written.length === 0) return
  const now = await readShared(
    ctx,
    written.map((w) => w.membership.id)
  )
  const moved = movedSince(written, now)
  if (moved.length === 0) return
  const itemsAt = moved.map(
    ({ mailbox, changes }) =>
      (at: { rv: number; ts: number }) =>
        projectionLogItems(ctx, mailbox, changes, at)
  )
  const { rvs, askedAt } = await issueRvs(ctx, itemsAt.length)
  const ts = ctx.now()
  const items = await Promise.all(itemsAt.map((at, i) => at({ rv: rvs[i] as number, ts })))
  await putItems(ctx, landedNow(ctx, items.flat()))
  await logAllAgainWhileLate(ctx, askedAt, itemsAt)
}

/**
 * The members index (shared-members.ts) after the batch's writes: an item for each mailbox that
 * joined or moved, the old item gone for each that left or moved.
 */
function memberChanges(
  landed: readonly { mailbox: string; p: Planned }[],
  out: readonly ManifestWriteOutcome[]
): { put: Item[]; gone: Item[] } {
  const put: Item[] = []
  const gone: Item[] = []
  for (const { mailbox, p } of landed) {
    const outcome = out[p.index]
    if (!outcome?.ok) continue
    const { shared, entries } = outcome.result.manifest
    const was = p.current?.shared?.membership.id
    if (shared && !p.share?.continuing) put.push(memberItem(mailbox, shared.membership, entries))
    if (was !== undefined && was !== shared?.membership.id) gone.push(memberKey(was, mailbox))
  }
  return { put, gone }
}

/** The shared manifests' change-log items, when no member of the batch wrote (and relogged late). */
async function logShared(ctx: StoreContext, groups: readonly ShareGroup[]): Promise<void> {
  if (groups.length === 0) return
  const askedAt = ctx.now()
  await putItems(
    ctx,
    landedNow(
      ctx,
      groups.flatMap((g) => g.items)
    )
  )
  await logAllAgainWhileLate(
    ctx,
    Math.min(askedAt, ...groups.map((g) => g.askedAt)),
    groups.map((g) => (at) => projectionLogItems(ctx, g.id, g.changes, at))
  )
}

/** One write: `writeManifests` of one, its failure thrown. */
export async function writeManifest(
  ctx: StoreContext,
  cache: BodyCache,
  mailbox: string,
  w: ManifestWrite
): Promise<ManifestWriteResult> {
  const [outcome] = await writeManifests(ctx, cache, [{ mailbox, w }])
  if (!outcome?.ok) throw outcome?.error
  return outcome.result
}
