/**
 * The planning half of manifest writes (projection-manifest-write.ts): each write checked, its
 * bodies stored and its entries hashed against the manifest it expects (the caller's `known` one,
 * else read: the reads of one batch in one BatchGetItem per 100); the shared manifests the writes
 * name written first (shared-manifest-write.ts); then each write planned, alone or as a member
 * (shared-membership.ts). A write whose plan changes nothing ends here, unwritten, with its
 * outcome; a failure fails only its own write.
 */
import type { StoreContext } from './context.ts'
import { type BodyCache, putBodies } from './projection-bodies.ts'
import {
  type ManifestPlan,
  planChanges,
  planManifest,
  type WantedEntry,
} from './projection-diff.ts'
import { specHash } from './projection-hash.ts'
import {
  checkDesired,
  checkMailbox,
  isMailboxId,
  manifestConflict,
  readManifest,
  readManifests,
  readVersions,
} from './projection-manifest.ts'
import type {
  Manifest,
  ManifestWrite,
  ManifestWriteOutcome,
  ManifestWriteRequest,
} from './projection-types.ts'
import { liveOf, type ShareGroup, shareIds, writeShared } from './shared-manifest-write.ts'
import { type MemberPlan, planMember } from './shared-membership.ts'

/** A write that changes something, planned and waiting for its rv. */
export type Planned = {
  index: number
  mailbox: string
  w: ManifestWrite
  current: Manifest | undefined
  plan: ManifestPlan
  /** What the mailbox shares after the write (membership.ts). */
  share?: MemberPlan
  /**
   * Keys of the shared manifest the mailbox leaves: their copies are logged again (MODIFIED) at
   * the write, since a watch that resumes after it no longer reads that shared manifest's changes.
   */
  relog?: Set<string>
}

/** A write checked, its bodies stored, its entries hashed. */
type Checked = {
  index: number
  mailbox: string
  w: ManifestWrite
  current: Manifest | undefined
  wanted: WantedEntry[]
}

export const counts = (plan: ManifestPlan) => ({
  added: plan.added,
  changed: plan.changed,
  removed: plan.removed.length,
})

/** Checks a write, stores its bodies and hashes its entries against `current`. */
async function check(
  ctx: StoreContext,
  cache: BodyCache,
  req: ManifestWriteRequest & { index: number },
  reading: Promise<Manifest | undefined>
): Promise<Checked> {
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
  return { index, mailbox, w, current, wanted }
}

/** Plans a checked write (membership.ts for what it shares); `done` when it writes nothing. */
function plan(c: Checked, group: ShareGroup | undefined): Prepared {
  const { index, mailbox, w, current, wanted } = c
  const member = group ? planMember(mailbox, current, wanted, group.next) : undefined
  const p = member?.plan ?? planManifest(current?.entries ?? [], wanted)
  // A member that joins, or a mailbox that leaves its shared manifest, writes its membership.
  const staying = member ? member.continuing : current?.shared === undefined
  if (planChanges(p) + p.resourced === 0 && staying) {
    const manifest = member ? member.after : (current ?? { mailbox, version: 0, entries: [] })
    const written = member !== undefined && (group?.written ?? false)
    const result = { manifest, ...counts(written ? member.effective() : p), written }
    return { kind: 'done', outcome: { ok: true, result } }
  }
  const leaving = current?.shared && !member?.continuing ? current.shared.membership : undefined
  const relog = leaving ? new Set(Object.keys(leaving.marks)) : undefined
  return {
    kind: 'planned',
    planned: {
      ...{ index, mailbox, w, current, plan: p },
      ...(member ? { share: member } : {}),
      ...(relog ? { relog } : {}),
    },
  }
}

type Prepared =
  | { kind: 'done'; outcome: ManifestWriteOutcome }
  | { kind: 'planned'; planned: Planned }

/** The manifests the writes plan against: `known` where given, the rest read in one batch. */
async function currentManifests(
  ctx: StoreContext,
  requests: readonly ManifestWriteRequest[]
): Promise<Map<string, Manifest>> {
  // An invalid id fails its own write (check); the others are read.
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

/**
 * A member that writes nothing planned on the manifest its caller read (`known`), and nothing
 * else checks that version: the manifests of those are read once more (their versions only, one
 * read per 100), and one that moved fails with Conflict, as its write would have, so the caller
 * plans again on a fresh read.
 */
async function checkUnwritten(
  ctx: StoreContext,
  unwritten: readonly Checked[],
  out: ManifestWriteOutcome[]
): Promise<void> {
  if (unwritten.length === 0) return
  const versions = await readVersions(
    ctx,
    unwritten.map((c) => c.mailbox)
  )
  for (const c of unwritten) {
    const stored = versions.get(c.mailbox) ?? null
    const expected = c.current?.version ?? null
    if (stored !== expected) {
      const why = `the manifest changed since version ${expected}`
      out[c.index] = { ok: false, error: manifestConflict(c.mailbox, why) }
    }
  }
}

/** Checks every write and reads what it needs: the manifests not `known`, in one batch. */
export async function checkAll(
  ctx: StoreContext,
  cache: BodyCache,
  requests: readonly ManifestWriteRequest[],
  out: ManifestWriteOutcome[]
): Promise<Checked[]> {
  const reading = currentManifests(ctx, requests)
  const checked = await Promise.all(
    requests.map(async (r, index): Promise<Checked | undefined> => {
      // A failed read fails the writes that needed it, each through its own check.
      const current =
        r.w.known === undefined
          ? reading.then((read) => read.get(r.mailbox))
          : Promise.resolve(r.w.known ?? undefined)
      current.catch(() => undefined)
      try {
        return await check(ctx, cache, { ...r, index }, current)
      } catch (error) {
        out[index] = { ok: false, error }
        return undefined
      }
    })
  )
  // Writes that failed before needing the read leave it in flight: end it before answering.
  await reading.catch(() => undefined)
  return checked.filter((c) => c !== undefined)
}

/** Plans the checked writes, writing the shared manifests they name first (shared-manifest-write.ts). */
export async function planAll(
  ctx: StoreContext,
  checked: readonly Checked[],
  out: ManifestWriteOutcome[]
): Promise<{ planned: Planned[]; groups: ShareGroup[] }> {
  const ids = await shareIds(checked.map((c) => ({ share: c.w.share, wanted: c.wanted })))
  const wants = new Map<string, WantedEntry[]>()
  checked.forEach((c, i) => {
    const id = ids[i]
    if (id !== undefined && !wants.has(id)) wants.set(id, liveOf(c.wanted))
  })
  const now = checked[0]?.w.now ?? new Date(ctx.now())
  const { groups, failed } =
    wants.size > 0 ? await writeShared(ctx, wants, now) : { groups: new Map(), failed: new Map() }
  const planned: Planned[] = []
  const unwritten: Checked[] = []
  checked.forEach((c, i) => {
    const id = ids[i]
    try {
      if (id !== undefined && failed.has(id)) throw failed.get(id)
      const p = plan(c, id === undefined ? undefined : groups.get(id))
      if (p.kind === 'planned') planned.push(p.planned)
      else {
        out[c.index] = p.outcome
        if (c.w.known !== undefined && id !== undefined) unwritten.push(c)
      }
    } catch (error) {
      out[c.index] = { ok: false, error }
    }
  })
  await checkUnwritten(ctx, unwritten, out)
  return { planned, groups: [...groups.values()] }
}
