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
import { putItems } from './batch-put.ts'
import type { StoreContext } from './context.ts'
import { issueRvs, logAllAgainWhileLate } from './late-entries.ts'
import { type BodyCache, putBodies } from './projection-bodies.ts'
import { encodeEntries, type ProjectionChange } from './projection-codec.ts'
import {
  entryKey,
  type ManifestPlan,
  planChanges,
  planManifest,
  stampManifest,
  type WantedEntry,
} from './projection-diff.ts'
import { specHash } from './projection-hash.ts'
import { landedNow, projectionLogItems } from './projection-log.ts'
import {
  checkDesired,
  checkMailbox,
  isMailboxId,
  manifestConflict,
  manifestKey,
  readManifest,
  readManifests,
} from './projection-manifest.ts'
import { getCopyStatesOf } from './projection-state.ts'
import type {
  Manifest,
  ManifestWrite,
  ManifestWriteOutcome,
  ManifestWriteRequest,
  ManifestWriteResult,
  StoredCopyState,
} from './projection-types.ts'

/** A write that changes something, planned and waiting for its rv. */
type Planned = {
  index: number
  mailbox: string
  w: ManifestWrite
  current: Manifest | undefined
  plan: ManifestPlan
}

type Prepared =
  | { kind: 'done'; outcome: ManifestWriteOutcome }
  | { kind: 'planned'; planned: Planned }

const counts = (plan: ManifestPlan) => ({
  added: plan.added,
  changed: plan.changed,
  removed: plan.removed.length,
})

/** Checks a write, stores its bodies and plans it against `current`. */
async function prepare(
  ctx: StoreContext,
  cache: BodyCache,
  req: ManifestWriteRequest & { index: number },
  reading: Promise<Manifest | undefined>
): Promise<Prepared> {
  const { mailbox, w, index } = req
  checkMailbox(mailbox)
  checkDesired(mailbox, w.desired)
  const bodies = w.desired.map((d) => d.body)
  const [hashes, specs, current] = await Promise.all([
    putBodies(ctx, cache, bodies),
    Promise.all(bodies.map(specHash)),
    reading,
  ])
  const expected = w.expectedVersion || null
  const stored = current?.version ?? null
  if (stored !== expected) {
    throw manifestConflict(mailbox, `the manifest version is ${stored}, not ${expected}`)
  }
  const wanted = w.desired.map(
    ({ group, version, resource, namespace, name, removing, sources }, i): WantedEntry => ({
      ...{ group, version, resource, namespace, name },
      ...{ hash: hashes[i]!, specHash: specs[i]! },
      ...(removing ? { removing } : {}),
      ...(sources?.length ? { sources } : {}),
    })
  )
  const plan = planManifest(current?.entries ?? [], wanted)
  if (planChanges(plan) + plan.resourced === 0) {
    const manifest = current ?? { mailbox, version: 0, entries: [] }
    return {
      kind: 'done',
      outcome: { ok: true, result: { manifest, ...counts(plan), written: false } },
    }
  }
  return { kind: 'planned', planned: { index, mailbox, w, current, plan } }
}

/** The manifests the writes plan against: `known` where given, the rest read in one batch. */
async function currentManifests(
  ctx: StoreContext,
  requests: readonly ManifestWriteRequest[]
): Promise<Map<string, Manifest>> {
  // An invalid id fails its own write (prepare); the others are read.
  const valid = requests
    .filter((r) => r.w.known === undefined && isMailboxId(r.mailbox))
    .map((r) => r.mailbox)
  if (valid.length === 0) return new Map()
  // One alone is one GetItem, as cheap as a batch and cheaper to answer.
  if (new Set(valid).size === 1) {
    const one = await readManifest(ctx, valid[0] as string)
    return new Map(one ? [[one.mailbox, one]] : [])
  }
  return readManifests(ctx, valid)
}

/** Puts one planned manifest at `rv`; its log items, or the write's failure. */
async function put(
  ctx: StoreContext,
  p: Planned,
  at: { rv: number; ts: number },
  states: Map<string, StoredCopyState> | undefined
): Promise<{ result: ManifestWriteResult; changes: ProjectionChange[]; items: Item[] }> {
  const { mailbox, w, current, plan } = p
  const stamp = { rv: at.rv, created: timestamp(w.now), uid: () => crypto.randomUUID() }
  const { entries, changes } = stampManifest(plan, stamp)
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
  try {
    await ctx.client.send(
      new PutItemCommand({
        TableName: ctx.table,
        Item: { ...manifestKey(mailbox), ver: n(at.rv), ts: n(at.ts), body: b(data) },
        ...condition,
      })
    )
  } catch (e) {
    if (!isConditionalFailure(e)) throw e
    throw manifestConflict(mailbox, `the manifest changed since version ${expected}`)
  }
  const manifest = { mailbox, version: at.rv, entries }
  return { result: { manifest, ...counts(plan), written: true }, changes, items }
}

export async function writeManifests(
  ctx: StoreContext,
  cache: BodyCache,
  requests: readonly ManifestWriteRequest[]
): Promise<ManifestWriteOutcome[]> {
  const out: ManifestWriteOutcome[] = new Array(requests.length)
  const reading = currentManifests(ctx, requests)
  const prepared = await Promise.all(
    requests.map(async (r, index): Promise<Planned | undefined> => {
      // A failed read fails the writes that needed it, each through its own prepare.
      const current =
        r.w.known === undefined
          ? reading.then((read) => read.get(r.mailbox))
          : Promise.resolve(r.w.known ?? undefined)
      current.catch(() => undefined)
      try {
        const p = await prepare(ctx, cache, { ...r, index }, current)
        if (p.kind === 'planned') return p.planned
        out[index] = p.outcome
      } catch (error) {
        out[index] = { ok: false, error }
      }
      return undefined
    })
  )
  // Writes that failed before needing the read leave it in flight: end it before answering.
  await reading.catch(() => undefined)
  const planned = prepared.filter((p) => p !== undefined)
  if (planned.length === 0) return out
  // Changed copies keep their reported state: their MODIFIED events carry it.
  const wants = planned.map(({ mailbox, plan }) => ({
    mailbox,
    keys: plan.items.flatMap(({ old, same }) => (old && !same ? [old] : [])),
  }))
  const [issued, states] = await Promise.all([
    issueRvs(ctx, planned.length),
    wants.some((x) => x.keys.length > 0) ? getCopyStatesOf(ctx, wants) : new Map(),
  ])
  const ts = ctx.now()
  const landed: { changes: ProjectionChange[]; mailbox: string; items: Item[] }[] = []
  await Promise.all(
    planned.map(async (p, i) => {
      try {
        const at = { rv: issued.rvs[i] as number, ts }
        const done = await put(ctx, p, at, states.get(p.mailbox))
        out[p.index] = { ok: true, result: done.result }
        landed.push({ changes: done.changes, mailbox: p.mailbox, items: done.items })
      } catch (error) {
        out[p.index] = { ok: false, error }
      }
    })
  )
  await putItems(
    ctx,
    landedNow(
      ctx,
      landed.flatMap((l) => l.items)
    )
  )
  await logAllAgainWhileLate(
    ctx,
    issued.askedAt,
    landed.map(
      ({ mailbox, changes }) =>
        (at) =>
          projectionLogItems(ctx, mailbox, changes, at)
    )
  )
  return out
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
